import { translate } from '@bourse/i18n';
import type { ReasonCode, ReasonParams } from '@bourse/protocol';

/**
 * Binance's error shape `{ code, msg }` with Binance's codes, messages and HTTP statuses for the
 * refusals the platform's services raise (docs/bots.md lists them). Where Binance has no matching
 * case the code is -1013 (a new order's rules) or -1000 with the refusal's English text.
 */
export type BinanceError = { status: number; code: number; msg: string };

/** What the call was doing: an unknown order is -2011 on cancel and -2013 on a query. */
export type ErrorContext = 'order' | 'cancel' | 'query' | 'other';

const KEY_REJECTED = { status: 401, code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' };

const mandatory = (field: string): BinanceError => ({
  status: 400,
  code: -1102,
  msg: `Mandatory parameter '${field}' was not sent, was empty/null, or malformed.`,
});

export const illegal = (field: string): BinanceError => ({
  status: 400,
  code: -1100,
  msg: `Illegal characters found in parameter '${field}'.`,
});

export const INVALID_SYMBOL: BinanceError = { status: 400, code: -1121, msg: 'Invalid symbol.' };
export const INVALID_INTERVAL: BinanceError = { status: 400, code: -1120, msg: 'Invalid interval.' };

const filter = (name: string): BinanceError => ({ status: 400, code: -1013, msg: `Filter failure: ${name}` });
const rejected = (msg: string): BinanceError => ({ status: 400, code: -2010, msg });

const FIXED: Partial<Record<ReasonCode, BinanceError>> = {
  APIKEY_INVALID: KEY_REJECTED,
  APIKEY_IP_NOT_ALLOWED: KEY_REJECTED,
  APIKEY_PERMISSION: KEY_REJECTED,
  APIKEY_SIGNATURE_INVALID: { status: 400, code: -1022, msg: 'Signature for this request is not valid.' },
  APIKEY_TIMESTAMP_OUTSIDE_WINDOW: {
    status: 400,
    code: -1021,
    msg: 'Timestamp for this request is outside of the recvWindow.',
  },
  SPOT_MARKET_UNKNOWN: INVALID_SYMBOL,
  INSTRUMENT_UNKNOWN: INVALID_SYMBOL,
  INSUFFICIENT_BALANCE: rejected('Account has insufficient balance for requested action.'),
  ORDER_PRICE_TICK: filter('PRICE_FILTER'),
  ORDER_QTY_LOT: filter('LOT_SIZE'),
  ORDER_QTY_BELOW_MIN: filter('LOT_SIZE'),
  ORDER_NOTIONAL_BELOW_MIN: filter('MIN_NOTIONAL'),
  ORDER_NOTIONAL_ABOVE_MAX: filter('NOTIONAL'),
  ORDER_OPEN_LIMIT: filter('MAX_NUM_ORDERS'),
  ORDER_PRICE_REQUIRED: mandatory('price'),
  ORDER_PRICE_NOT_ALLOWED: { status: 400, code: -1106, msg: "Parameter 'price' sent when not required." },
  ORDER_TIF_INVALID: { status: 400, code: -1115, msg: 'Invalid timeInForce.' },
  ORDER_POST_ONLY_INVALID: { status: 400, code: -1116, msg: 'Invalid orderType.' },
  ORDER_WOULD_TAKE: rejected('Order would immediately match and take.'),
  ORDER_BOOK_FULL: rejected('Order book is full.'),
  CLIENT_OID_REUSED: rejected('Duplicate order sent.'),
  TRADING_HALTED: rejected('Market is closed.'),
  SPOT_BUSY: {
    status: 503,
    code: -1008,
    msg: 'Server is currently overloaded with other requests. Please try again in a few minutes.',
  },
  // SPOT_LEASES=on: another process owns the book; nothing done, the same request may be retried.
  SPOT_BOOK_MOVED: {
    status: 503,
    code: -1001,
    msg: 'Internal error; unable to process your request. Please try again.',
  },
  SPOT_MARKET_HALTED: rejected('Market is closed.'),
  MARKET_CLOSED: rejected('Market is closed.'),
  RATE_LIMITED: {
    status: 429,
    code: -1003,
    msg: 'Too many requests; please use the websocket for live updates to avoid bans.',
  },
};

/** A refusal of the platform's services as Binance would answer it. */
export function binanceErrorOf(
  reason: ReasonCode,
  params: ReasonParams,
  context: ErrorContext,
): BinanceError {
  const field = typeof params.field === 'string' ? params.field : 'unknown';
  if (reason === 'NOT_FOUND' || reason === 'ORDER_NOT_OPEN') {
    if (context === 'cancel') return { status: 400, code: -2011, msg: 'Unknown order sent.' };
    if (context === 'query' || context === 'order')
      return { status: 400, code: -2013, msg: 'Order does not exist.' };
  }
  if (reason === 'FIELD_REQUIRED') return mandatory(field);
  if (reason === 'BAD_INPUT' || reason === 'LIMIT_TOO_LARGE' || reason === 'DATE_RANGE_INVALID')
    return illegal(reason === 'DATE_RANGE_INVALID' ? 'startTime' : field);
  if (reason === 'AMOUNT_INVALID' || reason === 'AMOUNT_NOT_POSITIVE' || reason === 'AMOUNT_TOO_LARGE') {
    return { status: 400, code: -1013, msg: field === 'price' ? 'Invalid price.' : 'Invalid quantity.' };
  }
  const fixed = FIXED[reason];
  if (fixed) return fixed;
  const msg = translate('en', `reason.${reason}`, params as Record<string, string | number>);
  return context === 'order' ? rejected(msg) : { status: 400, code: -1000, msg };
}

export const UNKNOWN_ERROR: BinanceError = {
  status: 500,
  code: -1000,
  msg: 'An unknown error occurred while processing the request.',
};

/** A Binance error raised by the bot API itself (bad parameters, limits), outside the services' refusals. */
export class BinanceRefusal extends Error {
  override name = 'BinanceRefusal';
  readonly error: BinanceError;
  constructor(error: BinanceError) {
    super(error.msg);
    this.error = error;
  }
}

export function binanceRefuse(error: BinanceError): never {
  throw new BinanceRefusal(error);
}

export function binanceMandatory(field: string): never {
  throw new BinanceRefusal(mandatory(field));
}
