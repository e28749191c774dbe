import { type Static, Type } from 'typebox';
import { CommonFields } from './access.ts';

/**
 * Withdrawals, the address book, bank cards, wallets, the trade password and the Google
 * authenticator (docs/api.md, "Withdrawals"). Amounts are decimal strings; times are ms.
 */
export const WITHDRAW_LIMITS = {
  tradePasswordLength: 6,
  idMax: 40,
  pageSizeDefault: 20,
  pageSizeMax: 100,
} as const;

const id = Type.String({ minLength: 1, maxLength: WITHDRAW_LIMITS.idMax });
const str = (max: number) => Type.String({ maxLength: max });
const opt = (max: number) => Type.Optional(str(max));
const tradePassword = Type.String({ minLength: 1, maxLength: 32 });
const currency = Type.String({ minLength: 1, maxLength: 10 });
const digits = (max: number) => Type.String({ pattern: `^[0-9]{1,${max}}$` });

export const TradePasswordBindBody = Type.Object(
  {
    ...CommonFields,
    password: Type.String({ minLength: 1, maxLength: 64 }),
    trade_password: tradePassword,
    trade_password2: tradePassword,
  },
  { additionalProperties: false },
);
export type TradePasswordBindBody = Static<typeof TradePasswordBindBody>;

export const TradePasswordEditBody = Type.Object(
  {
    ...CommonFields,
    old_trade_password: tradePassword,
    trade_password: tradePassword,
    trade_password2: tradePassword,
  },
  { additionalProperties: false },
);
export type TradePasswordEditBody = Static<typeof TradePasswordEditBody>;

export const GoogleCodeBody = Type.Object(
  { ...CommonFields, google_code: Type.String({ minLength: 1, maxLength: 8 }) },
  { additionalProperties: false },
);

export const AddressListQuery = Type.Object(
  { ...CommonFields, currency: Type.Optional(currency) },
  { additionalProperties: false },
);

export const AddAddressBody = Type.Object(
  {
    ...CommonFields,
    currency,
    chain: Type.String({ minLength: 1, maxLength: 10 }),
    address: Type.String({ minLength: 1, maxLength: 128 }),
    remark: opt(64),
    memo: opt(64),
  },
  { additionalProperties: false },
);
export type AddAddressBody = Static<typeof AddAddressBody>;

export const AddressIdBody = Type.Object(
  { ...CommonFields, address_id: id },
  { additionalProperties: false },
);
export const PayeeIdBody = Type.Object({ ...CommonFields, payee_id: id }, { additionalProperties: false });

export const AddBankBody = Type.Object(
  {
    ...CommonFields,
    bank_name: str(64),
    bank_account: opt(64),
    card_number: str(40),
    swift_code: opt(11),
    routing_number: opt(9),
    bank_address: opt(128),
    bank_phone: opt(20),
    payee_name: str(64),
    payee_phone: opt(20),
    payee_address: opt(128),
  },
  { additionalProperties: false },
);
export type AddBankBody = Static<typeof AddBankBody>;

export const AddWalletBody = Type.Object(
  {
    ...CommonFields,
    wallet_type: str(10),
    wallet_account: str(64),
    wallet_nickname: opt(64),
    payee_name: str(64),
  },
  { additionalProperties: false },
);
export type AddWalletBody = Static<typeof AddWalletBody>;

export const WithdrawRulesQuery = Type.Object({ ...CommonFields, currency }, { additionalProperties: false });

export const WithdrawBody = Type.Object(
  {
    ...CommonFields,
    method: Type.Union([Type.Literal('address'), Type.Literal('bank')]),
    /** `address_id` for method=address, `payee_id` (a bank card) for method=bank. */
    address_id: Type.Optional(id),
    payee_id: Type.Optional(id),
    currency,
    amount: Type.String({ maxLength: 64 }),
    trade_password: tradePassword,
    google_code: Type.Optional(Type.String({ maxLength: 8 })),
  },
  { additionalProperties: false },
);
export type WithdrawBody = Static<typeof WithdrawBody>;

export const WithdrawalIdBody = Type.Object(
  { ...CommonFields, withdrawal_id: id },
  { additionalProperties: false },
);

export const WithdrawListQuery = Type.Object(
  {
    ...CommonFields,
    /** 0 failure, 1 processing, 2 success (spec 4). */
    status: Type.Optional(Type.Union([Type.Literal('0'), Type.Literal('1'), Type.Literal('2')])),
    method: Type.Optional(Type.Union([Type.Literal('address'), Type.Literal('bank')])),
    currency: Type.Optional(currency),
    start_time: Type.Optional(digits(15)),
    end_time: Type.Optional(digits(15)),
    page: Type.Optional(digits(6)),
    page_size: Type.Optional(digits(3)),
  },
  { additionalProperties: false },
);
export type WithdrawListQuery = Static<typeof WithdrawListQuery>;

/** The statuses the back office filters by (internal states). */
export const WITHDRAWAL_STATES = [
  'pending',
  'processing',
  'completed',
  'failed',
  'rejected',
  'cancelled',
] as const;
export type WithdrawalState = (typeof WITHDRAWAL_STATES)[number];

export type WithdrawRuleView = { code: string; enabled: boolean; params: Record<string, unknown> };

export type WithdrawalView = {
  id: string;
  method: 'address' | 'bank';
  currency: string;
  chain: string;
  destination: string;
  memo: string;
  amount: string;
  fee: string;
  received: string;
  status: 0 | 1 | 2;
  state: WithdrawalState;
  reject_reason: string;
  /** Why a payout failed: network_rejected | destination_rejected | provider_error | bank_returned ('' otherwise). */
  fail_reason: string;
  tx_hash: string;
  /** The transaction on the network's explorer ('' without a hash). */
  explorer_url: string;
  /** The bank's reference of a bank withdrawal staff marked paid ('' otherwise). */
  bank_reference: string;
  can_cancel: 0 | 1;
  created_at: number;
  updated_at: number;
};

export const AdminWithdrawListQuery = Type.Object(
  {
    state: Type.Optional(Type.Union(WITHDRAWAL_STATES.map((s) => Type.Literal(s)))),
    page: Type.Optional(digits(6)),
    page_size: Type.Optional(digits(3)),
  },
  { additionalProperties: false },
);

export const AdminWithdrawDecisionBody = Type.Object(
  { withdrawal_id: id, reason: Type.Optional(Type.String({ maxLength: 500 })) },
  { additionalProperties: false },
);

export const AdminRuleBody = Type.Object(
  {
    code: Type.String({ minLength: 1, maxLength: 32 }),
    enabled: Type.Boolean(),
    params: Type.Record(Type.String(), Type.Unknown()),
  },
  { additionalProperties: false },
);

export const WithdrawWebhookBody = Type.Object(
  {
    event_id: Type.String({ minLength: 1, maxLength: 100 }),
    withdrawal_id: id,
    provider_ref: Type.String({ minLength: 1, maxLength: 100 }),
    status: Type.Union([Type.Literal('confirmed'), Type.Literal('failed')]),
    tx_hash: Type.Optional(Type.String({ maxLength: 128 })),
  },
  { additionalProperties: false },
);
export type WithdrawWebhookBody = Static<typeof WithdrawWebhookBody>;
