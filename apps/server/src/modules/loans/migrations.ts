import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

const U = 100_000_000n; // one USDT in minor units
const usdt = (whole: bigint) => (whole * U).toString();

/**
 * The first published credit-score table (version 1) and limit table, seeded once. Later versions
 * are published by staff (`POST admin/loans/score-table`); this seed is part of the migration and
 * never edited. The best score is 800; advanced verification alone gives 400 (limit 500 USDT).
 */
const SEED_BANDS = {
  verification: [
    { from: '0', points: 0 },
    { from: '1', points: 50 },
    { from: '2', points: 100 },
    { from: '3', points: 130 },
  ],
  account_age: [
    { from: '0', points: 0 },
    { from: '30', points: 20 },
    { from: '90', points: 40 },
    { from: '180', points: 60 },
    { from: '365', points: 80 },
  ],
  deposits: [
    { from: '0', points: 0 },
    { from: usdt(100n), points: 20 },
    { from: usdt(1_000n), points: 40 },
    { from: usdt(10_000n), points: 70 },
    { from: usdt(100_000n), points: 100 },
  ],
  trading_volume: [
    { from: '0', points: 0 },
    { from: usdt(1_000n), points: 20 },
    { from: usdt(10_000n), points: 40 },
    { from: usdt(100_000n), points: 70 },
    { from: usdt(1_000_000n), points: 100 },
  ],
  loans_on_time: [
    { from: '0', points: 0 },
    { from: '1', points: 30 },
    { from: '3', points: 60 },
    { from: '10', points: 90 },
  ],
  loans_late: [
    { from: '0', points: 0 },
    { from: '1', points: -40 },
    { from: '3', points: -100 },
  ],
  overdue_days: [
    { from: '0', points: 0 },
    { from: '1', points: -50 },
    { from: '8', points: -120 },
    { from: '31', points: -250 },
  ],
};
const SEED_LIMITS = [
  { score_min: 0, limit_units: '0' },
  { score_min: 400, limit_units: usdt(500n) },
  { score_min: 450, limit_units: usdt(1_000n) },
  { score_min: 500, limit_units: usdt(3_000n) },
  { score_min: 600, limit_units: usdt(10_000n) },
  { score_min: 700, limit_units: usdt(50_000n) },
];

export const loansMigrations: Record<string, Migration> = {
  '20261201_0900_loans_init': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table loans_setting (
          id integer primary key check (id = 1),
          approval_threshold_units numeric(38,0) not null check (approval_threshold_units >= 0),
          agreement_version text not null check (length(agreement_version) between 1 and 40),
          updated_at timestamptz not null,
          updated_by text
        );

        create table loans_score_table (
          version integer primary key check (version > 0),
          base_points integer not null,
          bands jsonb not null check (jsonb_typeof(bands) = 'object'),
          limits jsonb not null check (jsonb_typeof(limits) = 'array'),
          created_at timestamptz not null,
          created_by text not null,
          reason text not null
        );

        create table loans_lender (
          id text primary key,
          code text not null unique check (code ~ '^[a-z0-9]{4,32}$'),
          name text not null,
          source jsonb not null,
          created_at timestamptz not null,
          created_by text not null
        );
        create table loans_funding_request (
          id text primary key,
          lender_id text not null references loans_lender (id),
          amount_units numeric(38,0) not null check (amount_units > 0),
          reason text not null,
          state text not null check (state in ('pending', 'approved', 'rejected')),
          requested_by text not null,
          requested_at timestamptz not null,
          decided_by text,
          decided_at timestamptz,
          decision_reason text,
          entry_id text,
          check ((state = 'pending') = (decided_at is null)),
          check (decided_by is null or decided_by <> requested_by),
          check ((state = 'approved') = (entry_id is not null))
        );
        create index loans_funding_request_by on loans_funding_request (lender_id, requested_at desc);

        create table loans_product (
          id text primary key,
          state text not null check (state in ('active', 'paused')),
          names jsonb not null,
          descriptions jsonb not null,
          lender_id text not null references loans_lender (id),
          amount_min_units numeric(38,0) not null check (amount_min_units > 0),
          amount_max_units numeric(38,0) not null check (amount_max_units >= amount_min_units),
          term_days jsonb not null check (jsonb_typeof(term_days) = 'array'),
          daily_rate_ppm numeric(20,0) not null check (daily_rate_ppm >= 0),
          interest_free_days integer not null check (interest_free_days >= 0),
          overdue_rate_ppm numeric(20,0) not null check (overdue_rate_ppm >= 0),
          late_fee_units numeric(38,0) not null check (late_fee_units >= 0),
          created_at timestamptz not null,
          created_by text not null,
          updated_at timestamptz not null
        );

        create table loans_loan (
          id text primary key,
          customer_id text not null,
          product_id text not null references loans_product (id),
          lender_id text not null references loans_lender (id),
          lender_code text not null,
          state text not null check (state in
            ('unreviewed', 'disbursed', 'repaying', 'cleared', 'overdue', 'rejected', 'withdrawn', 're_applied')),
          amount_units numeric(38,0) not null check (amount_units > 0),
          term_days integer not null check (term_days > 0),
          quote jsonb not null,
          caps jsonb not null,
          agreement_version text not null,
          agreement_accepted_at timestamptz not null,
          proof_ids jsonb not null check (jsonb_typeof(proof_ids) = 'array'),
          previous_id text references loans_loan (id),
          next_id text references loans_loan (id),
          score_at_apply integer not null,
          score_version integer not null,
          limit_at_apply_units numeric(38,0) not null,
          created_at timestamptz not null,
          withdrawn_at timestamptz,
          first_approved_by text,
          first_approved_at timestamptz,
          decided_by text,
          decided_at timestamptz,
          reject_reason text check (reject_reason in
            ('score_too_low', 'income_insufficient', 'documents_unclear', 'identity_mismatch', 'debt_too_high', 'other')),
          decision_note text,
          disbursed_at timestamptz,
          disburse_entry_id text,
          due_at timestamptz,
          loan_state jsonb,
          days_done integer not null default 0 check (days_done >= 0),
          next_day_at timestamptz,
          repaid_units numeric(38,0) not null default 0 check (repaid_units >= 0),
          reminded_at timestamptz,
          cleared_at timestamptz,
          cleared_late boolean,
          check ((state in ('disbursed', 'repaying', 'overdue', 'cleared')) = (disbursed_at is not null)),
          check ((disbursed_at is null) = (loan_state is null)),
          check ((disbursed_at is null) = (disburse_entry_id is null)),
          check ((state in ('disbursed', 'repaying', 'overdue')) = (next_day_at is not null)),
          check ((state in ('rejected', 're_applied')) = (reject_reason is not null)),
          check ((state = 'cleared') = (cleared_at is not null)),
          check ((state = 'withdrawn') = (withdrawn_at is not null)),
          check ((state = 're_applied') = (next_id is not null)),
          check (disbursed_at is null or first_approved_by is null or decided_by <> first_approved_by)
        );
        create unique index loans_loan_one_open on loans_loan (customer_id)
          where state in ('unreviewed', 'disbursed', 'repaying', 'overdue');
        create index loans_loan_customer on loans_loan (customer_id, created_at desc);
        create index loans_loan_due on loans_loan (next_day_at) where next_day_at is not null;
        create index loans_loan_queue on loans_loan (created_at) where state = 'unreviewed';

        create table loans_day (
          loan_id text not null references loans_loan (id),
          day integer not null check (day > 0),
          kind text not null check (kind in ('interest', 'overdue')),
          interest_units numeric(38,0) not null check (interest_units >= 0),
          fee_units numeric(38,0) not null check (fee_units >= 0),
          capped boolean not null,
          entry_id text unique,
          posted_at timestamptz not null,
          primary key (loan_id, day),
          check ((entry_id is null) = (interest_units + fee_units = 0))
        );

        create table loans_repayment (
          id text primary key,
          loan_id text not null references loans_loan (id),
          customer_id text not null,
          method text not null check (method in ('balance', 'voucher')),
          state text not null check (state in ('pending', 'confirmed', 'rejected')),
          amount_units numeric(38,0) not null check (amount_units > 0),
          voucher_id text,
          paid_fees_units numeric(38,0),
          paid_interest_units numeric(38,0),
          paid_principal_units numeric(38,0),
          entry_id text unique,
          created_at timestamptz not null,
          decided_by text,
          decided_at timestamptz,
          decision_reason text,
          check ((method = 'voucher') = (voucher_id is not null)),
          check ((state = 'confirmed') = (entry_id is not null)),
          check (state <> 'confirmed' or
            paid_fees_units + paid_interest_units + paid_principal_units = amount_units)
        );
        create index loans_repayment_loan on loans_repayment (loan_id, created_at);
        create index loans_repayment_pending on loans_repayment (created_at) where state = 'pending';

        create table loans_score_review (
          id text primary key,
          customer_id text not null,
          state text not null check (state in ('open', 'closed')),
          score integer not null,
          version integer not null,
          breakdown jsonb not null,
          note text not null,
          created_at timestamptz not null,
          closed_by text,
          closed_at timestamptz,
          closing_note text,
          check ((state = 'closed') = (closed_at is not null))
        );
        create unique index loans_score_review_one_open on loans_score_review (customer_id) where state = 'open';
        create index loans_score_review_list on loans_score_review (created_at desc);
      `.execute(db);
      await sql`
        insert into loans_setting (id, approval_threshold_units, agreement_version, updated_at)
        values (1, ${usdt(10_000n)}, '2026-12-v1', now())`.execute(db);
      await sql`
        insert into loans_score_table (version, base_points, bands, limits, created_at, created_by, reason)
        values (1, 300, ${JSON.stringify(SEED_BANDS)}::jsonb, ${JSON.stringify(SEED_LIMITS)}::jsonb, now(),
                'system', 'the first published table')`.execute(db);
    },
  },
  /**
   * Write-off with four eyes (README.md, "Write-off"): the request (code, reason, who, when), the
   * confirmation by a different staff member, the amount taken off the books and its entry, and the
   * state `written_off` (disbursed, no loan-day due). The two CHECKs of the init migration that list
   * the states are replaced (found by their definition: they were created unnamed).
   */
  '20261202_0900_loans_write_off': {
    async up(db: Kysely<unknown>) {
      await sql`
        do $$
        declare c record;
        begin
          for c in
            select conname from pg_constraint
            where conrelid = 'loans_loan'::regclass and contype = 'c'
              and (pg_get_constraintdef(oid) like '%unreviewed%'
                or (pg_get_constraintdef(oid) like '%cleared%' and pg_get_constraintdef(oid) like '%disbursed_at IS NOT NULL%'))
          loop
            execute format('alter table loans_loan drop constraint %I', c.conname);
          end loop;
        end $$;

        alter table loans_loan
          add column write_off_code text check (write_off_code in
            ('uncollectable', 'deceased', 'fraud_victim', 'settlement')),
          add column write_off_reason text,
          add column write_off_requested_by text,
          add column write_off_requested_at timestamptz,
          add column written_off_by text,
          add column written_off_at timestamptz,
          add column write_off_units numeric(38,0) check (write_off_units > 0),
          add column write_off_entry_id text unique,
          add constraint loans_loan_state_known check (state in
            ('unreviewed', 'disbursed', 'repaying', 'cleared', 'overdue', 'rejected', 'withdrawn', 're_applied',
             'written_off')),
          add constraint loans_loan_disbursed_states check (
            (state in ('disbursed', 'repaying', 'overdue', 'cleared', 'written_off')) = (disbursed_at is not null)),
          add constraint loans_loan_write_off_request check (
            (write_off_requested_at is null) = (write_off_code is null)
            and (write_off_requested_at is null) = (write_off_reason is null)
            and (write_off_requested_at is null) = (write_off_requested_by is null)),
          add constraint loans_loan_written_off check (
            (state = 'written_off') = (written_off_at is not null)
            and (written_off_at is null) = (written_off_by is null)
            and (written_off_at is null) = (write_off_units is null)
            and (written_off_at is null) = (write_off_entry_id is null)
            and (written_off_at is null or write_off_requested_at is not null)),
          add constraint loans_loan_write_off_four_eyes check (
            written_off_by is null or written_off_by <> write_off_requested_by);
      `.execute(db);
    },
  },
};
