import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The C2C tables (README.md, "Tables"). The state machine of `@bourse/risk` `c2c.ts` is mirrored by
 * CHECKs: escrow in ⇔ matched or later; escrow out ⇔ a final state; paid ⇔ a state after paid — so
 * an expired or cancelled order can never carry a payment, and a decision's confirmer is never its
 * asker.
 */
export const c2cMigrations: Record<string, Migration> = {
  '20261210_0900_c2c_init': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table c2c_merchant (
          id text primary key,
          customer_id text not null unique,
          name text not null check (length(name) between 2 and 100),
          state text not null check (state in ('pending', 'approved', 'suspended')),
          is_operator boolean not null default false,
          created_at timestamptz not null,
          created_by text not null,
          decided_by text,
          decided_at timestamptz,
          reason text
        );

        create table c2c_offer (
          id text primary key,
          merchant_id text not null references c2c_merchant (id),
          side text not null check (side in ('buy', 'sell')),
          coin text not null,
          fiat text not null check (fiat ~ '^[A-Z]{3}$'),
          price_kind text not null check (price_kind in ('fixed', 'spread')),
          price_units numeric(38,0) check (price_units > 0),
          spread_bps integer check (spread_bps between -2000 and 2000),
          feed_symbol text,
          min_units numeric(38,0) not null check (min_units > 0),
          max_units numeric(38,0) not null check (max_units >= min_units),
          total_units numeric(38,0) not null check (total_units > 0),
          sold_units numeric(38,0) not null default 0 check (sold_units >= 0 and sold_units <= total_units),
          methods jsonb not null check (jsonb_typeof(methods) = 'array'),
          terms text not null,
          state text not null check (state in ('active', 'paused')),
          created_at timestamptz not null,
          updated_at timestamptz not null,
          check ((price_kind = 'fixed') = (price_units is not null)),
          check ((price_kind = 'spread') = (spread_bps is not null and feed_symbol is not null))
        );
        create index c2c_offer_list on c2c_offer (state, side, coin, fiat);

        create table c2c_order (
          id text primary key,
          offer_id text not null references c2c_offer (id),
          merchant_id text not null references c2c_merchant (id),
          merchant_customer_id text not null,
          customer_id text not null,
          side text not null check (side in ('buy', 'sell')),
          seller_id text not null,
          buyer_id text not null,
          coin text not null,
          coin_scale integer not null,
          fiat text not null,
          amount_units numeric(38,0) not null check (amount_units > 0),
          price_units numeric(38,0) not null check (price_units > 0),
          fiat_cents numeric(38,0) not null check (fiat_cents >= 0),
          price_kind text not null check (price_kind in ('fixed', 'spread')),
          feed_symbol text,
          feed_price_units numeric(38,0),
          feed_source text,
          feed_at timestamptz,
          spread_bps integer,
          method text not null check (method in ('bank', 'alipay', 'wechat')),
          window_minutes integer not null check (window_minutes > 0),
          state text not null check (state in
            ('pending_match', 'matched', 'paid', 'disputed', 'completed', 'expired', 'cancelled', 'rejected')),
          pay_to jsonb,
          pay_by timestamptz not null,
          confirm_by timestamptz,
          payer_name text,
          payer_bank text,
          proof_file_id text,
          paid_at timestamptz,
          dispute_reason text,
          dispute_note text,
          dispute_by text check (dispute_by in ('customer', 'merchant', 'job')),
          disputed_at timestamptz,
          respond_by timestamptz,
          first_outcome text check (first_outcome in ('release', 'return')),
          first_reason text,
          first_by text,
          first_at timestamptz,
          outcome text check (outcome in ('release', 'return')),
          outcome_by text check (outcome_by in ('staff', 'rule')),
          outcome_reason text,
          decided_by text,
          escrow_in_entry text unique,
          escrow_out_entry text unique,
          end_reason text,
          finished_at timestamptz,
          pay_reminded_at timestamptz,
          confirm_reminded_at timestamptz,
          event_seq integer not null default 0,
          message_seq integer not null default 0,
          created_at timestamptz not null,
          check (seller_id <> buyer_id),
          check ((state <> 'pending_match') = (escrow_in_entry is not null)),
          check ((state in ('completed', 'expired', 'cancelled', 'rejected')) = (escrow_out_entry is not null)),
          check ((state in ('completed', 'expired', 'cancelled', 'rejected')) = (finished_at is not null)),
          check ((state in ('paid', 'disputed', 'completed', 'rejected')) = (paid_at is not null)),
          check ((paid_at is null) = (payer_name is null) and (paid_at is null) = (proof_file_id is null)),
          check (state not in ('matched', 'paid', 'disputed') or pay_to is not null),
          check ((disputed_at is null) = (dispute_by is null)),
          check ((outcome is null) = (outcome_by is null)),
          check (outcome is null or state in ('completed', 'rejected')),
          check (decided_by is null or first_by is null or decided_by <> first_by)
        );
        create index c2c_order_customer on c2c_order (customer_id, created_at desc);
        create index c2c_order_merchant on c2c_order (merchant_id, created_at desc);
        create index c2c_order_pay_due on c2c_order (pay_by) where state = 'matched';
        create index c2c_order_confirm_due on c2c_order (confirm_by) where state = 'paid';
        create index c2c_order_respond_due on c2c_order (respond_by) where state = 'disputed';

        create table c2c_event (
          order_id text not null references c2c_order (id),
          seq integer not null check (seq > 0),
          event text not null,
          from_state text,
          to_state text not null,
          actor text not null check (actor in ('customer', 'merchant', 'staff', 'job')),
          actor_id text not null,
          reason text,
          at timestamptz not null,
          primary key (order_id, seq)
        );
        -- each state is entered at most once per order: a transition cannot run twice
        create unique index c2c_event_once on c2c_event (order_id, to_state);

        create table c2c_message (
          id text primary key,
          order_id text not null references c2c_order (id),
          seq integer not null check (seq > 0),
          sender text not null check (sender in ('customer', 'merchant', 'staff', 'system')),
          sender_id text not null,
          kind text not null check (kind in ('text', 'evidence')),
          body text check (length(body) <= 1000),
          file_id text,
          at timestamptz not null,
          unique (order_id, seq),
          check (body is not null or file_id is not null)
        );

        create table c2c_account (
          id text primary key,
          customer_id text not null,
          method text not null check (method in ('bank', 'alipay', 'wechat')),
          name text not null,
          bank_name text,
          account_no text,
          iban text,
          swift text,
          bank_address text,
          wallet_id text,
          created_at timestamptz not null,
          deleted_at timestamptz,
          check (method <> 'bank' or (bank_name is not null and (account_no is not null or iban is not null))),
          check (method = 'bank' or wallet_id is not null)
        );
        create index c2c_account_customer on c2c_account (customer_id) where deleted_at is null;
      `.execute(db);
    },
  },
  '20261211_0900_c2c_demo_book': {
    async up(db: Kysely<unknown>) {
      await sql`
        alter table c2c_offer add column book text not null default 'real' check (book in ('real', 'demo'));
        alter table c2c_order add column book text not null default 'real' check (book in ('real', 'demo'));
        create index c2c_order_demo_desk on c2c_order (state) where book = 'demo';
        -- A real payment carries its proof; a demo one (play money, demo accounts cannot upload) may not.
        alter table c2c_order drop constraint c2c_order_check5;
        alter table c2c_order add constraint c2c_order_payment check (
          (paid_at is null) = (payer_name is null)
          and (proof_file_id is null or paid_at is not null)
          and (book = 'demo' or (paid_at is null) = (proof_file_id is null))
        );
      `.execute(db);
    },
  },
};
