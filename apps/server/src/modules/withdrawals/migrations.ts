import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { DEFAULT_RULES } from './policy.ts';

/** Withdrawal tables (range 0600–0649). Forward-only: a change is a new migration. */
export const withdrawalsMigrations: Record<string, Migration> = {
  '20261121_0600_withdrawals_init': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table withdrawals_trade_password (
          customer_id text primary key,
          password_hash text not null,
          failed_count integer not null default 0 check (failed_count >= 0),
          locked_until timestamptz,
          created_at timestamptz not null,
          updated_at timestamptz not null
        );
        create table withdrawals_google (
          customer_id text primary key,
          secret_sealed text not null,
          enabled_at timestamptz,
          last_step bigint,
          created_at timestamptz not null
        );
        create table withdrawals_address (
          id text primary key,
          customer_id text not null,
          currency text not null check (currency ~ '^[A-Z0-9]{2,10}$'),
          chain text not null check (chain in ('ERC20', 'TRC20', 'BTC')),
          address text not null check (length(address) between 1 and 128),
          remark text not null default '' check (length(remark) <= 64),
          memo text not null default '' check (length(memo) <= 64),
          created_at timestamptz not null,
          unique (customer_id, currency, chain, address)
        );
        create index withdrawals_address_customer on withdrawals_address (customer_id, created_at desc);
        create table withdrawals_payee (
          id text primary key,
          customer_id text not null,
          kind text not null check (kind in ('bank', 'wallet')),
          sealed text not null,
          created_at timestamptz not null
        );
        create index withdrawals_payee_customer on withdrawals_payee (customer_id, kind, created_at desc);
        create table withdrawals_rule (
          code text primary key,
          position integer not null,
          enabled boolean not null,
          params jsonb not null,
          updated_at timestamptz not null,
          updated_by text
        );
        create table withdrawals_withdrawal (
          id text primary key,
          customer_id text not null,
          method text not null check (method in ('address', 'bank')),
          destination_id text not null,
          destination text not null,
          destination_label text not null,
          currency text not null,
          chain text not null,
          memo text not null default '',
          amount numeric(38,0) not null check (amount > 0),
          fee numeric(38,0) not null check (fee >= 0),
          received numeric(38,0) not null check (received > 0 and received + fee = amount),
          status text not null check (status in ('pending','processing','completed','failed','rejected','cancelled')),
          policy_day date not null,
          reject_reason text,
          decided_by text,
          provider_ref text,
          tx_hash text,
          created_at timestamptz not null,
          updated_at timestamptz not null,
          decided_at timestamptz,
          settled_at timestamptz
        );
        create index withdrawals_withdrawal_customer on withdrawals_withdrawal (customer_id, created_at desc);
        create index withdrawals_withdrawal_day on withdrawals_withdrawal (customer_id, policy_day);
        create index withdrawals_withdrawal_status on withdrawals_withdrawal (status, created_at);
        create table withdrawals_payout (
          id text primary key,
          withdrawal_id text not null unique references withdrawals_withdrawal (id),
          chain text not null,
          destination_label text not null,
          amount numeric(38,0) not null check (amount > 0),
          currency text not null,
          created_at timestamptz not null
        );
      `.execute(db);
      const now = new Date('2026-11-21T00:00:00Z');
      for (const [position, rule] of DEFAULT_RULES.entries()) {
        await sql`insert into withdrawals_rule (code, position, enabled, params, updated_at)
          values (${rule.code}, ${position + 1}, true, ${JSON.stringify(rule.params)}::jsonb, ${now})`.execute(
          db,
        );
      }
    },
  },
  /**
   * Payouts end (issue 13): the embedded provider simulates a chain. A broadcast carries its
   * transaction hash and the instant it is confirmed (network block count × simulated block time);
   * the payout job settles it then. Broadcasts recorded before this migration confirm at the next run.
   */
  '20261125_0610_withdrawals_payout_sim': {
    async up(db: Kysely<unknown>) {
      await sql`
        alter table withdrawals_payout
          add column status text not null default 'broadcast'
            check (status in ('broadcast', 'confirmed', 'failed')),
          add column tx_hash text,
          add column confirm_at timestamptz,
          add column settled_at timestamptz;
        alter table withdrawals_withdrawal
          add column fail_reason text check (fail_reason is null or length(fail_reason) <= 32),
          add column bank_reference text check (bank_reference is null or length(bank_reference) <= 64),
          add column paid_requested_by text;
        update withdrawals_payout
          set tx_hash = case when chain = 'ERC20' then '0x' else '' end
                        || encode(sha256(convert_to(id, 'UTF8')), 'hex'),
              confirm_at = created_at
          where chain in ('ERC20', 'TRC20', 'BTC');
        create index withdrawals_payout_due on withdrawals_payout (confirm_at) where status = 'broadcast';
      `.execute(db);
    },
  },
  '20261125_0610_withdrawals_turnover_off': {
    // Issue 13: the turnover rule is off by default and holds promotional credit only. Turned off
    // where it is still as shipped (never changed by staff: no `updated_by`, shipped params).
    async up(db: Kysely<unknown>) {
      await sql`update withdrawals_rule set enabled = false
        where code = 'turnover' and enabled and updated_by is null
          and params = ${JSON.stringify({ percent: 90 })}::jsonb`.execute(db);
    },
  },
  '20261126_0620_withdrawals_destination_index': {
    // Issue 13: the staff queue shows each address's history (other customers who withdrew to it).
    async up(db: Kysely<unknown>) {
      await sql`create index withdrawals_withdrawal_address on withdrawals_withdrawal (chain, destination)
        where method = 'address'`.execute(db);
    },
  },
};
