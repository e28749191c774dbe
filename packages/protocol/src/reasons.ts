import { CODE, type EnvelopeCode } from './envelope.ts';

/**
 * The one registry of refusal and error reasons. Every key needs a translation under
 * `reason.<KEY>` in each i18n catalog and a line in docs/errors.md; reasons.test.ts enforces both.
 * `params` lists the parameter names the message may interpolate, so tests can check them.
 */
export const REASONS = {
  // Transport and input
  BAD_INPUT: { code: CODE.BAD_REQUEST, params: ['field'] },
  FIELD_REQUIRED: { code: CODE.BAD_REQUEST, params: ['field'] },
  FIELD_TOO_LONG: { code: CODE.BAD_REQUEST, params: ['field', 'max'] },
  FIELD_TOO_SHORT: { code: CODE.BAD_REQUEST, params: ['field', 'min'] },
  UNKNOWN_FIELD: { code: CODE.BAD_REQUEST, params: ['field'] },
  MALFORMED_BODY: { code: CODE.BAD_REQUEST, params: [] },
  UNSUPPORTED_MEDIA_TYPE: { code: CODE.UNSUPPORTED_TYPE, params: [] },
  BODY_TOO_LARGE: { code: CODE.TOO_LARGE, params: ['maxBytes'] },
  INVALID_CHARACTERS: { code: CODE.BAD_REQUEST, params: ['field'] },
  QUERY_TOO_LONG: { code: CODE.TOO_LARGE, params: ['maxBytes'] },
  HEADERS_TOO_LARGE: { code: CODE.TOO_LARGE, params: ['maxBytes'] },
  RATE_LIMITED: { code: CODE.TOO_MANY_REQUESTS, params: ['seconds'] },
  NOT_FOUND: { code: CODE.NOT_FOUND, params: [] },
  FORBIDDEN: { code: CODE.FORBIDDEN, params: [] },
  REQUEST_IN_PROGRESS: { code: CODE.CONFLICT, params: [] },
  REQUEST_ALREADY_APPLIED: { code: CODE.CONFLICT, params: [] },
  RTOKEN_REUSED: { code: CODE.BAD_REQUEST, params: ['field'] },
  SERVER_ERROR: { code: CODE.SERVER_ERROR, params: [] },

  // Sessions
  LOGIN_REQUIRED: { code: CODE.SESSION_ENDED, params: [] },
  SESSION_EXPIRED: { code: CODE.SESSION_ENDED, params: [] },
  SESSION_PASSWORD_CHANGED: { code: CODE.SESSION_CONFIRM, params: [] },
  DEMO_EXPIRED: { code: CODE.SESSION_ENDED, params: [] },

  // Access
  PASSWORDS_MISMATCH: { code: CODE.REFUSED, params: [] },
  PASSWORD_LENGTH: { code: CODE.REFUSED, params: ['min', 'max'] },
  EMAIL_INVALID: { code: CODE.REFUSED, params: [] },
  PHONE_INVALID: { code: CODE.REFUSED, params: [] },
  ACCOUNT_NAME_INVALID: { code: CODE.REFUSED, params: [] },
  CODE_WRONG: { code: CODE.REFUSED, params: ['triesLeft'] },
  CODE_EXPIRED: { code: CODE.REFUSED, params: [] },
  CODE_TRIES_EXHAUSTED: { code: CODE.REFUSED, params: ['maxTries'] },
  CODE_COOLDOWN: { code: CODE.REFUSED, params: ['seconds'] },
  ACCOUNT_EXISTS: { code: CODE.REFUSED, params: [] },
  ACCOUNT_NOT_FOUND: { code: CODE.REFUSED, params: [] },
  ACCOUNT_DISABLED: { code: CODE.REFUSED, params: [] },
  LOGIN_FAILED: { code: CODE.REFUSED, params: ['attemptsLeft'] },
  LOGIN_LOCKED: { code: CODE.REFUSED, params: ['minutes', 'maxFailures'] },
  INVITATION_REQUIRED: { code: CODE.REFUSED, params: [] },
  INVITATION_INVALID: { code: CODE.REFUSED, params: [] },
  AGREEMENT_REQUIRED: { code: CODE.REFUSED, params: [] },
  OLD_PASSWORD_WRONG: { code: CODE.REFUSED, params: [] },
  PASSWORD_UNCHANGED: { code: CODE.REFUSED, params: [] },
  WALLET_NONCE_INVALID: { code: CODE.REFUSED, params: [] },
  WALLET_MESSAGE_INVALID: { code: CODE.REFUSED, params: ['field'] },
  WALLET_SIGNATURE_INVALID: { code: CODE.REFUSED, params: [] },
  REAL_ACCOUNT_REQUIRED: { code: CODE.REFUSED, params: [] },

  // Ledger
  INSUFFICIENT_BALANCE: { code: CODE.REFUSED, params: ['currency', 'available'] },
  INSUFFICIENT_FROZEN: { code: CODE.REFUSED, params: ['currency', 'frozen'] },
  DEMO_BOOK_MISMATCH: { code: CODE.REFUSED, params: [] },
  ENTRY_ALREADY_REVERSED: { code: CODE.REFUSED, params: [] },

  // Market data
  INSTRUMENT_UNKNOWN: { code: CODE.NOT_FOUND, params: ['symbol'] },
  INSTRUMENT_HALTED: { code: CODE.REFUSED, params: ['symbol'] },
  INSTRUMENT_DELISTED: { code: CODE.REFUSED, params: ['symbol'] },
  MARKET_CLOSED: { code: CODE.REFUSED, params: ['symbol', 'hours'] },
  PRICE_STALE: { code: CODE.REFUSED, params: ['symbol', 'seconds'] },
  LIMIT_TOO_LARGE: { code: CODE.BAD_REQUEST, params: ['field', 'max'] },
  CHANNEL_UNKNOWN: { code: CODE.BAD_REQUEST, params: ['channel'] },
  SUBSCRIPTIONS_LIMIT: { code: CODE.REFUSED, params: ['max'] },
  IMPORT_ROW_INVALID: { code: CODE.BAD_REQUEST, params: ['line', 'field'] },
  IMPORT_TOO_LARGE: { code: CODE.TOO_LARGE, params: ['maxRows'] },
  TRADING_HOURS_INVALID: { code: CODE.BAD_REQUEST, params: ['hours'] },

  // Amounts (any money input) and assets
  AMOUNT_INVALID: { code: CODE.REFUSED, params: ['field'] },
  AMOUNT_NOT_POSITIVE: { code: CODE.REFUSED, params: ['field'] },
  AMOUNT_TOO_PRECISE: { code: CODE.REFUSED, params: ['field', 'decimals'] },
  AMOUNT_TOO_LARGE: { code: CODE.REFUSED, params: ['field', 'max'] },
  CURRENCY_UNKNOWN: { code: CODE.REFUSED, params: ['currency'] },
  TRANSFER_SAME_ACCOUNT: { code: CODE.REFUSED, params: [] },
  DATE_RANGE_INVALID: { code: CODE.BAD_REQUEST, params: [] },

  // Deposits
  RECHARGE_CHANNEL_CLOSED: { code: CODE.REFUSED, params: ['currency', 'chain'] },
  RECHARGE_BELOW_MINIMUM: { code: CODE.REFUSED, params: ['minimum', 'currency'] },
  WEBHOOK_SIGNATURE_INVALID: { code: CODE.FORBIDDEN, params: [] },
  UPLOAD_TOO_LARGE: { code: CODE.TOO_LARGE, params: ['maxBytes'] },
  UPLOAD_TYPE_INVALID: { code: CODE.UNSUPPORTED_TYPE, params: [] },
  DEPOSIT_NOT_PENDING: { code: CODE.REFUSED, params: [] },

  // Back office (staff)
  STAFF_CODE_WRONG: { code: CODE.REFUSED, params: ['attemptsLeft'] },
  STAFF_CHALLENGE_EXPIRED: { code: CODE.REFUSED, params: [] },
  STAFF_EMAIL_TAKEN: { code: CODE.REFUSED, params: [] },
  STAFF_PASSWORD_WEAK: { code: CODE.REFUSED, params: ['min', 'max'] },
  STAFF_SELF_ACTION: { code: CODE.REFUSED, params: [] },
  ADJUSTMENT_SELF_APPROVAL: { code: CODE.REFUSED, params: [] },
  ADJUSTMENT_NOT_PENDING: { code: CODE.REFUSED, params: ['status'] },
  ADJUSTMENT_DEMO_CUSTOMER: { code: CODE.REFUSED, params: [] },

  // Withdrawals
  TRADE_PASSWORD_FORMAT: { code: CODE.REFUSED, params: [] },
  TRADE_PASSWORD_NOT_SET: { code: CODE.REFUSED, params: [] },
  TRADE_PASSWORD_ALREADY_SET: { code: CODE.REFUSED, params: [] },
  TRADE_PASSWORD_WRONG: { code: CODE.REFUSED, params: ['attemptsLeft'] },
  TRADE_PASSWORD_LOCKED: { code: CODE.REFUSED, params: ['minutes', 'maxFailures'] },
  GOOGLE_CODE_REQUIRED: { code: CODE.REFUSED, params: [] },
  GOOGLE_CODE_WRONG: { code: CODE.REFUSED, params: [] },
  GOOGLE_ALREADY_ENABLED: { code: CODE.REFUSED, params: [] },
  GOOGLE_NOT_ENABLED: { code: CODE.REFUSED, params: [] },
  ADDRESS_INVALID: { code: CODE.REFUSED, params: ['chain'] },
  ADDRESS_CHAIN_UNSUPPORTED: { code: CODE.REFUSED, params: ['currency', 'chain'] },
  ADDRESS_EXISTS: { code: CODE.REFUSED, params: [] },
  ADDRESS_BOOK_FULL: { code: CODE.REFUSED, params: ['max'] },
  PAYEE_LIMIT: { code: CODE.REFUSED, params: ['max'] },
  WITHDRAW_CURRENCY_NOT_ALLOWED: { code: CODE.REFUSED, params: ['currency', 'chain', 'allowed'] },
  WITHDRAW_WINDOW_CLOSED: { code: CODE.REFUSED, params: ['start', 'end', 'timezone'] },
  WITHDRAW_BELOW_MINIMUM: { code: CODE.REFUSED, params: ['min', 'currency'] },
  WITHDRAW_ABOVE_MAXIMUM: { code: CODE.REFUSED, params: ['max', 'currency'] },
  WITHDRAW_FEE_EXCEEDS_AMOUNT: { code: CODE.REFUSED, params: ['percent'] },
  WITHDRAW_DAILY_LIMIT: { code: CODE.REFUSED, params: ['max'] },
  WITHDRAW_TURNOVER_REQUIRED: {
    code: CODE.REFUSED,
    params: ['percent', 'held', 'withdrawable', 'more', 'currency'],
  },
  WITHDRAW_NOT_PENDING: { code: CODE.REFUSED, params: [] },
  WITHDRAW_NOT_PROCESSING: { code: CODE.REFUSED, params: [] },
  WITHDRAW_NOT_BANK: { code: CODE.REFUSED, params: [] },
  WITHDRAW_PAID_SECOND_STAFF: { code: CODE.REFUSED, params: [] },
  WITHDRAW_RULE_RANGE: { code: CODE.REFUSED, params: ['field', 'min', 'max'] },
  WITHDRAW_RULE_MIN_ABOVE_MAX: { code: CODE.REFUSED, params: ['min', 'max', 'currency'] },

  // Spot trading
  SPOT_MARKET_UNKNOWN: { code: CODE.NOT_FOUND, params: ['symbol'] },
  SPOT_MARKET_HALTED: { code: CODE.REFUSED, params: ['symbol', 'reason'] },
  SPOT_MARKET_EXISTS: { code: CODE.REFUSED, params: ['symbol'] },
  SPOT_MARKET_SCALE: { code: CODE.REFUSED, params: ['field', 'max'] },
  SPOT_FEE_RATE_RANGE: { code: CODE.REFUSED, params: ['field', 'max'] },
  TRADING_HALTED: { code: CODE.REFUSED, params: ['reason'] },
  ORDER_PRICE_REQUIRED: { code: CODE.REFUSED, params: [] },
  ORDER_PRICE_NOT_ALLOWED: { code: CODE.REFUSED, params: [] },
  ORDER_PRICE_TICK: { code: CODE.REFUSED, params: ['tick'] },
  ORDER_QTY_LOT: { code: CODE.REFUSED, params: ['lot'] },
  ORDER_QTY_BELOW_MIN: { code: CODE.REFUSED, params: ['min'] },
  ORDER_NOTIONAL_BELOW_MIN: { code: CODE.REFUSED, params: ['min', 'currency'] },
  ORDER_NOTIONAL_ABOVE_MAX: { code: CODE.REFUSED, params: ['max', 'currency'] },
  ORDER_TIF_INVALID: { code: CODE.REFUSED, params: ['tif', 'type'] },
  ORDER_POST_ONLY_INVALID: { code: CODE.REFUSED, params: [] },
  ORDER_WOULD_TAKE: { code: CODE.REFUSED, params: [] },
  ORDER_OPEN_LIMIT: { code: CODE.REFUSED, params: ['max'] },
  ORDER_BOOK_FULL: { code: CODE.REFUSED, params: [] },
  ORDER_NOT_OPEN: { code: CODE.REFUSED, params: ['status'] },
  CLIENT_OID_REUSED: { code: CODE.REFUSED, params: ['client_oid'] },

  // Contracts and options (modules/contracts, modules/options)
  CONTRACT_UNAVAILABLE: { code: CODE.REFUSED, params: ['symbol'] },
  LEVERAGE_INVALID: { code: CODE.REFUSED, params: ['max'] },
  LOTS_STEP: { code: CODE.REFUSED, params: ['step'] },
  LOTS_BELOW_MIN: { code: CODE.REFUSED, params: ['min'] },
  LOTS_ABOVE_MAX: { code: CODE.REFUSED, params: ['max'] },
  TP_MUST_BE_ABOVE: { code: CODE.REFUSED, params: ['price'] },
  TP_MUST_BE_BELOW: { code: CODE.REFUSED, params: ['price'] },
  SL_MUST_BE_BELOW: { code: CODE.REFUSED, params: ['price'] },
  SL_MUST_BE_ABOVE: { code: CODE.REFUSED, params: ['price'] },
  POSITION_NOT_OPEN: { code: CODE.REFUSED, params: ['status'] },
  CLOSE_LOTS_ABOVE_OPEN: { code: CODE.REFUSED, params: ['lots'] },
  MARGIN_TOPUP_ABOVE_MAX: { code: CODE.REFUSED, params: ['max'] },
  CONTRACT_ORDER_NOT_PENDING: { code: CODE.REFUSED, params: ['status'] },
  CONTRACT_OPEN_LIMIT: { code: CODE.REFUSED, params: ['max'] },
  CONTRACT_EXPIRED: { code: CODE.REFUSED, params: ['symbol'] },
  CONTRACT_SETTING_INVALID: { code: CODE.REFUSED, params: ['field'] },
  OPTIONS_UNAVAILABLE: { code: CODE.REFUSED, params: ['symbol'] },
  OPTIONS_NOT_PERMITTED: { code: CODE.REFUSED, params: [] },
  OPTION_DURATION_INVALID: { code: CODE.REFUSED, params: ['durations'] },
  OPTION_STAKE_BELOW_MIN: { code: CODE.REFUSED, params: ['min'] },
  OPTION_STAKE_ABOVE_MAX: { code: CODE.REFUSED, params: ['max'] },
  OPTION_OPEN_LIMIT: { code: CODE.REFUSED, params: ['max'] },

  // Profile and security centre (modules/accounts/profile.ts)
  NAME_INVALID: { code: CODE.REFUSED, params: ['min', 'max'] },
  NAME_TAKEN: { code: CODE.REFUSED, params: [] },
  NAME_UNCHANGED: { code: CODE.REFUSED, params: [] },
  NAME_CHANGE_TOO_SOON: { code: CODE.REFUSED, params: ['days'] },
  CONTACT_UNCHANGED: { code: CODE.REFUSED, params: [] },
  CONTACT_TAKEN: { code: CODE.REFUSED, params: [] },
  ANSWER_LENGTH: { code: CODE.REFUSED, params: ['question', 'min', 'max'] },
  PHRASE_INVALID: { code: CODE.REFUSED, params: ['min', 'max'] },
  DEVICE_CURRENT: { code: CODE.REFUSED, params: [] },
  SECURITY_QUESTIONS_NOT_SET: { code: CODE.REFUSED, params: [] },
  ANSWER_CHECKS_EXHAUSTED: { code: CODE.REFUSED, params: ['max'] },
} as const satisfies Record<string, { code: EnvelopeCode; params: readonly string[] }>;

export type ReasonCode = keyof typeof REASONS;

export const REASON_CODES = Object.keys(REASONS) as ReasonCode[];

export function isReasonCode(value: string): value is ReasonCode {
  return Object.hasOwn(REASONS, value);
}
