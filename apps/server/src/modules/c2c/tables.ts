import type {
  C2cDisputeReason,
  C2cMerchantState,
  C2cMethod,
  C2cOfferState,
  C2cOrderSide,
  C2cOutcome,
  C2cPayToData,
  C2cState,
} from '@bourse/protocol';

/**
 * Kysely types of the C2C tables (migrations.ts). Coin amounts are NUMERIC minor units of the coin,
 * prices NUMERIC fiat per whole coin at 8 decimals, fiat amounts NUMERIC cents — all read as
 * strings; times timestamptz.
 */

/** A payment method an offer accepts: its payment window and its cap per order (coin units, or none). */
export type StoredMethod = { method: C2cMethod; window_minutes: number; max_units: string | null };

export type C2cMerchantTable = {
  id: string;
  customer_id: string;
  name: string;
  state: C2cMerchantState;
  is_operator: boolean;
  created_at: Date;
  created_by: string;
  decided_by: string | null;
  decided_at: Date | null;
  reason: string | null;
};

export type C2cOfferTable = {
  id: string;
  merchant_id: string;
  /** The customer's side: `buy` = the merchant sells coins. */
  side: C2cOrderSide;
  coin: string;
  fiat: string;
  price_kind: 'fixed' | 'spread';
  price_units: string | null;
  spread_bps: number | null;
  feed_symbol: string | null;
  min_units: string;
  max_units: string;
  total_units: string;
  /** Held by orders not returned to the offer (matched, paid, disputed, completed). */
  sold_units: string;
  methods: StoredMethod[];
  terms: string;
  state: C2cOfferState;
  /** The ledger book: `demo` offers are the operator's demo desk, for demo accounts (play money). */
  book: 'real' | 'demo';
  created_at: Date;
  updated_at: Date;
};

export type C2cOrderTable = {
  id: string;
  offer_id: string;
  merchant_id: string;
  merchant_customer_id: string;
  customer_id: string;
  side: C2cOrderSide;
  seller_id: string;
  buyer_id: string;
  coin: string;
  coin_scale: number;
  fiat: string;
  amount_units: string;
  price_units: string;
  fiat_cents: string;
  price_kind: 'fixed' | 'spread';
  feed_symbol: string | null;
  feed_price_units: string | null;
  feed_source: string | null;
  feed_at: Date | null;
  spread_bps: number | null;
  method: C2cMethod;
  window_minutes: number;
  state: C2cState;
  pay_to: C2cPayToData | null;
  pay_by: Date;
  confirm_by: Date | null;
  payer_name: string | null;
  payer_bank: string | null;
  proof_file_id: string | null;
  paid_at: Date | null;
  dispute_reason: C2cDisputeReason | null;
  dispute_note: string | null;
  dispute_by: 'customer' | 'merchant' | 'job' | null;
  disputed_at: Date | null;
  respond_by: Date | null;
  first_outcome: C2cOutcome | null;
  first_reason: string | null;
  first_by: string | null;
  first_at: Date | null;
  outcome: C2cOutcome | null;
  outcome_by: 'staff' | 'rule' | null;
  outcome_reason: string | null;
  decided_by: string | null;
  escrow_in_entry: string | null;
  escrow_out_entry: string | null;
  end_reason: string | null;
  finished_at: Date | null;
  pay_reminded_at: Date | null;
  confirm_reminded_at: Date | null;
  event_seq: number;
  message_seq: number;
  /** The offer's book: escrow and balances on it (`demo`: play money with the demo desk). */
  book: 'real' | 'demo';
  created_at: Date;
};

export type C2cEventTable = {
  order_id: string;
  seq: number;
  event: string;
  from_state: C2cState | null;
  to_state: C2cState;
  actor: 'customer' | 'merchant' | 'staff' | 'job';
  actor_id: string;
  reason: string | null;
  at: Date;
};

export type C2cMessageTable = {
  id: string;
  order_id: string;
  seq: number;
  sender: 'customer' | 'merchant' | 'staff' | 'system';
  sender_id: string;
  kind: 'text' | 'evidence';
  body: string | null;
  file_id: string | null;
  at: Date;
};

export type C2cAccountTable = {
  id: string;
  customer_id: string;
  method: C2cMethod;
  name: string;
  bank_name: string | null;
  account_no: string | null;
  iban: string | null;
  swift: string | null;
  bank_address: string | null;
  wallet_id: string | null;
  created_at: Date;
  deleted_at: Date | null;
};

export type C2cTables = {
  c2c_merchant: C2cMerchantTable;
  c2c_offer: C2cOfferTable;
  c2c_order: C2cOrderTable;
  c2c_event: C2cEventTable;
  c2c_message: C2cMessageTable;
  c2c_account: C2cAccountTable;
};
