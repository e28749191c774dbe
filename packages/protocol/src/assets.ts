import { type Static, Type } from 'typebox';
import { CommonFields } from './access.ts';
import type { RecordRefKind } from './ledger-reasons.ts';

/**
 * Assets, transfers, records and deposits (docs/api.md "Asset calls"). Amounts are decimal strings
 * checked by the server against the currency's scale, so the schema keeps them as plain text and the
 * refusal names the rule (AMOUNT_INVALID, AMOUNT_TOO_PRECISE, …) rather than a generic BAD_INPUT.
 */
export const ASSET_ACCOUNT_TYPES = ['spot', 'contract', 'options', 'earn', 'funding'] as const;
export type AssetAccountType = (typeof ASSET_ACCOUNT_TYPES)[number];

export const ASSET_LIMITS = {
  amountLengthMax: 64,
  /** The largest amount any asset call takes, in whole units of the currency. */
  amountWholeMax: '1000000000000',
  pageSizeMax: 100,
  exportRowsMax: 10_000,
  referenceMax: 200,
  rejectReasonMax: 500,
} as const;

/** Record status, as the spec's generic record status: 0 failure, 1 processing, 2 success. */
export const RECORD_STATUS = { failure: 0, processing: 1, success: 2 } as const;
export type RecordStatus = 0 | 1 | 2;

/** What a record screen lists: journal kinds (`all`, `money`, `account`, `deal`) and business kinds. */
export const RECORD_KINDS = ['all', 'money', 'account', 'deal', 'recharge', 'withdraw'] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

const code = Type.String({ minLength: 1, maxLength: 12 });
const digits = (max: number) => Type.String({ pattern: `^[0-9]{1,${max}}$` });
const accountType = Type.Union(ASSET_ACCOUNT_TYPES.map((t) => Type.Literal(t)));
const amount = Type.String({ maxLength: ASSET_LIMITS.amountLengthMax });

export const GetAssetQuery = Type.Object(
  { ...CommonFields, type: Type.Optional(accountType) },
  { additionalProperties: false },
);
export type GetAssetQuery = Static<typeof GetAssetQuery>;

export type AssetRow = {
  currency: string;
  available: string;
  frozen: string;
  total: string;
  /** available + frozen valued in USDT (USDT = 1); null when no price exists for the currency. */
  value_usdt: string | null;
  /** The reference price used (mark of <currency>/USDT), null for USDT itself or when none exists. */
  price: string | null;
  /** `sim`, `ccxt:<exchange>`, `replay`, `reference` (catalogue seed, never ticked) or `unit` (USDT). */
  price_source: string;
  /** The price is not live (silent feed, closed, halted or never ticked): the value is indicative. */
  price_stale: boolean;
  price_at: number;
};
export type AssetAccount = {
  type: AssetAccountType;
  total_usdt: string;
  price_stale: boolean;
  rows: AssetRow[];
};
export type AssetData = {
  valuation_currency: 'USDT';
  total_usdt: string;
  price_stale: boolean;
  is_demo: 0 | 1;
  accounts: AssetAccount[];
};

export type CurrencyData = {
  currency: string;
  name: string;
  scale: number;
  price_symbol: string | null;
  /** Deposit networks with their operator rules (minimum, confirmations, open). */
  chains: Array<{ chain: string; open: boolean; min_amount: string; confirmations: number }>;
};

export const TransferBody = Type.Object(
  {
    ...CommonFields,
    currency: code,
    amount,
    from: Type.String({ minLength: 1, maxLength: 16 }),
    to: Type.String({ minLength: 1, maxLength: 16 }),
  },
  { additionalProperties: false },
);
export type TransferBody = Static<typeof TransferBody>;
export type TransferData = {
  id: string;
  entry_id: string;
  currency: string;
  amount: string;
  from: AssetAccountType;
  to: AssetAccountType;
  from_available: string;
  to_available: string;
};

export const RecordsQuery = Type.Object(
  {
    ...CommonFields,
    kind: Type.Union(RECORD_KINDS.map((k) => Type.Literal(k))),
    type: Type.Optional(Type.String({ maxLength: 32 })),
    currency: Type.Optional(Type.String({ maxLength: 12 })),
    account_type: Type.Optional(accountType),
    status: Type.Optional(Type.Union([Type.Literal('0'), Type.Literal('1'), Type.Literal('2')])),
    /** ms since the epoch, inclusive / exclusive. */
    start_time: Type.Optional(digits(15)),
    end_time: Type.Optional(digits(15)),
    page: Type.Optional(digits(6)),
    page_size: Type.Optional(digits(4)),
  },
  { additionalProperties: false },
);
export type RecordsQuery = Static<typeof RecordsQuery>;

export type RecordItem = {
  id: string;
  time: number;
  /** What happened: a journal reason (`transfer`, `deposit`, …) or a business type (`crypto`, `bank`). */
  type: string;
  currency: string;
  /** Signed for journal records (+ in, − out); positive for deposits and withdrawals. */
  amount: string;
  account_type: string | null;
  status: RecordStatus;
  /** Held below the minimum (deposits): processing, shown, never lost. */
  held?: boolean;
  /** Short free text: chain and transaction, a bank reference; never an internal id or code. */
  detail: string;
  /** The business object this row belongs to (the web links to its screen). */
  ref?: { kind: RecordRefKind; id: string };
  /** Why a failed row failed (status 0), as entered by staff or the payout network. */
  failure?: string;
};
export type RecordsPage = {
  total: number;
  page: number;
  page_size: number;
  types: string[];
  items: RecordItem[];
};

// ---- Deposits -----------------------------------------------------------------------------------

export type RechargeChannel = {
  currency: string;
  chain: string;
  kind: 'crypto' | 'bank';
  open: boolean;
  min_amount: string;
  confirmations: number;
  /** Bank channels: where to remit (operator text). */
  instructions: string;
};

export const RechargeAddressQuery = Type.Object(
  { ...CommonFields, currency: code, chain: Type.String({ minLength: 1, maxLength: 12 }) },
  { additionalProperties: false },
);
export type RechargeAddressQuery = Static<typeof RechargeAddressQuery>;
export type RechargeAddressData = {
  currency: string;
  chain: string;
  address: string;
  min_amount: string;
  confirmations: number;
};

export const BankRechargeBody = Type.Object(
  {
    ...CommonFields,
    currency: code,
    amount,
    reference: Type.String({ minLength: 1, maxLength: ASSET_LIMITS.referenceMax }),
    /** The `file_id` of a `web/uploadDocument` upload with purpose `deposit_proof`. */
    proof_id: Type.String({ minLength: 1, maxLength: 40, pattern: '^[A-Za-z0-9_]+$' }),
  },
  { additionalProperties: false },
);
export type BankRechargeBody = Static<typeof BankRechargeBody>;
export type BankRechargeData = { id: string; status: RecordStatus };

/** The custody provider's deposit event (POST /api/custody/webhook, HMAC-signed). */
export const CustodyDepositEvent = Type.Object(
  {
    type: Type.Literal('deposit'),
    chain: Type.String({ minLength: 1, maxLength: 12 }),
    txid: Type.String({ minLength: 1, maxLength: 128, pattern: '^[0-9A-Za-z]+$' }),
    output_index: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
    address: Type.String({ minLength: 1, maxLength: 128 }),
    currency: code,
    amount: Type.String({ minLength: 1, maxLength: ASSET_LIMITS.amountLengthMax }),
    confirmations: Type.Integer({ minimum: 0, maximum: 1_000_000_000 }),
    status: Type.Union([Type.Literal('success'), Type.Literal('failed')]),
  },
  { additionalProperties: false },
);
export type CustodyDepositEvent = Static<typeof CustodyDepositEvent>;
