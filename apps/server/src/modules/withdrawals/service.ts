import { isKnownAsset, scaleOf, toDecimalString } from '@bourse/money';
import type { Logger } from 'pino';
import { type Db, inTransaction, type Tx } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { refuse } from '../../http/refusal.ts';
import type { AuditLog } from '../../http/staff.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { parseAmount } from '../assets/index.ts';
import type { Ledger } from '../ledger/index.ts';
import type { Book } from './book.ts';
import {
  checkDailyCount,
  checkRequest,
  checkTurnover,
  feeOf,
  invalidParam,
  localTime,
  RULE_CODES,
  type RuleCode,
  rulesFrom,
  turnoverHold,
} from './policy.ts';
import type { PayoutProvider } from './provider.ts';
import * as repo from './repo.ts';
import type { Security } from './security.ts';
import type { WithdrawalStatus } from './tables.ts';

/** Withdrawals pay out of the customer's spot account. */
export const WITHDRAW_ACCOUNT_TYPE = 'spot' as const;
export const PAGE_SIZE_MAX = 100;
export const EXPORT_ROWS_MAX = 10_000;
export const REJECT_REASON_MAX = 500;

/** Spec 4's generic record status: 0 failure, 1 processing/waiting, 2 success. */
export function statusCode(status: WithdrawalStatus): 0 | 1 | 2 {
  if (status === 'completed') return 2;
  if (status === 'pending' || status === 'processing') return 1;
  return 0;
}
export const STATUSES_OF_CODE: Record<'0' | '1' | '2', WithdrawalStatus[]> = {
  '0': ['failed', 'rejected', 'cancelled'],
  '1': ['pending', 'processing'],
  '2': ['completed'],
};

export type WithdrawalsDeps = {
  db: Db;
  clock: Clock;
  log: Logger;
  ledger: Ledger;
  book: Book;
  security: Security;
  provider: PayoutProvider;
  /** The back office's audit log; staff calls are offered only when it exists. */
  audit: AuditLog | null;
};

const fmt = (units: string | bigint, currency: string) => toDecimalString(BigInt(units), scaleOf(currency));

export function publicWithdrawal(row: repo.WithdrawalRow, destinationShown: string = row.destination_label) {
  return {
    id: row.id,
    method: row.method,
    currency: row.currency,
    chain: row.chain,
    destination: destinationShown,
    memo: row.memo,
    amount: fmt(row.amount, row.currency),
    fee: fmt(row.fee, row.currency),
    received: fmt(row.received, row.currency),
    status: statusCode(row.status),
    state: row.status,
    reject_reason: row.reject_reason ?? '',
    tx_hash: row.tx_hash ?? '',
    can_cancel: row.status === 'pending' ? 1 : 0,
    created_at: row.created_at.getTime(),
    updated_at: row.updated_at.getTime(),
  };
}

export type RequestInput = {
  method: 'address' | 'bank';
  destinationId: string;
  currency: string;
  amount: string;
  tradePassword: string;
  googleCode?: string;
};

export function createWithdrawals(deps: WithdrawalsDeps) {
  const { db, clock, ledger, book, security } = deps;

  /** The answer's form of a row: a bank destination shows its bank name and the card's last 4. */
  function view(row: repo.WithdrawalRow) {
    if (row.method !== 'bank') return publicWithdrawal(row);
    const fields = book.openBank(row.destination);
    return publicWithdrawal(row, `${fields.bank_name} **** ${fields.card_number.slice(-4)}`);
  }

  async function loadRules(q: Db | Tx = db) {
    return rulesFrom(await repo.listRules(q));
  }

  async function destinationOf(auth: AuthContext, input: RequestInput) {
    if (input.method === 'address') {
      const address = await repo.findAddress(db, auth.customerId, input.destinationId);
      if (!address) refuse('NOT_FOUND');
      if (input.currency !== address.currency) refuse('BAD_INPUT', { field: 'currency' });
      return {
        chain: address.chain,
        destination: address.address,
        label: address.address,
        memo: address.memo,
      };
    }
    const payee = await repo.findPayee(db, auth.customerId, input.destinationId);
    if (!payee || payee.kind !== 'bank') refuse('NOT_FOUND');
    const fields = book.openBank(payee.sealed);
    // The snapshot stays sealed: the withdrawal row holds no digit of the card in the clear;
    // answers show the last 4, opened from the snapshot (view()).
    return { chain: 'BANK', destination: payee.sealed, label: fields.bank_name, memo: '' };
  }

  async function decide(
    staffId: string,
    withdrawalId: string,
    action: 'approve' | 'reject',
    reason?: string,
  ) {
    const audit = deps.audit;
    if (!audit) throw new Error('staff calls need the audit log');
    return inTransaction(db, async (tx) => {
      const row = await repo.findWithdrawal(tx, withdrawalId, { lock: true });
      if (!row) refuse('NOT_FOUND');
      if (row.status !== 'pending') refuse('WITHDRAW_NOT_PENDING');
      const now = clock.now();
      let patch: Partial<repo.WithdrawalRow>;
      if (action === 'approve') {
        const sent = await deps.provider.send(
          tx,
          {
            withdrawalId: row.id,
            currency: row.currency,
            chain: row.chain,
            destinationLabel: row.destination_label,
            memo: row.memo,
            amountUnits: BigInt(row.received),
          },
          now,
        );
        patch = { status: 'processing', provider_ref: sent.providerRef };
      } else {
        await ledger.unfreeze(tx, {
          book: 'real',
          customerId: row.customer_id,
          accountType: WITHDRAW_ACCOUNT_TYPE,
          currency: row.currency,
          amountUnits: BigInt(row.amount),
          reason: 'withdrawal.reject',
          reference: { type: 'withdrawal', id: row.id },
          idempotencyKey: `wdr-release:${row.id}`,
          actorId: staffId,
          memo: reason ?? null,
        });
        patch = { status: 'rejected', reject_reason: reason ?? '' };
      }
      Object.assign(patch, { decided_by: staffId, decided_at: now, updated_at: now });
      await repo.updateWithdrawal(tx, row.id, patch);
      const after = { ...row, ...patch };
      await audit.record(tx, {
        actorId: staffId,
        action: `withdrawal.${action}`,
        targetType: 'withdrawal',
        targetId: row.id,
        before: { status: row.status },
        after: { status: after.status, provider_ref: after.provider_ref ?? null },
        ...(reason ? { reason } : {}),
      });
      return view(after);
    });
  }

  return {
    loadRules,

    /** The rules as the withdrawal screen lists them before the customer submits. */
    async rulesForScreen(auth: AuthContext, currency: string) {
      const rules = await loadRules();
      const status = await security.status(auth);
      let available = '0';
      let withdrawable = '0';
      const held: Array<{
        code: RuleCode;
        params: Record<string, unknown>;
        amount: string;
        release: { trade_more: string };
      }> = [];
      if (isKnownAsset(currency) && !auth.isDemo) {
        const balance = await ledger.balance(db, {
          book: 'real',
          customerId: auth.customerId,
          accountType: WITHDRAW_ACCOUNT_TYPE,
          currency,
        });
        available = fmt(balance.availableUnits, currency);
        withdrawable = available;
        if (rules.turnover.enabled) {
          const figures = await repo.turnoverFigures(db, { customerId: auth.customerId, currency });
          const hold = turnoverHold(rules, {
            availableUnits: balance.availableUnits,
            promotionalUnits: figures.promotional,
            consumedUnits: figures.consumed,
          });
          withdrawable = fmt(hold.withdrawableUnits, currency);
          if (hold.heldUnits > 0n) {
            held.push({
              code: 'turnover',
              params: { ...rules.turnover.params },
              amount: fmt(hold.heldUnits, currency),
              release: { trade_more: fmt(hold.releaseMoreUnits, currency) },
            });
          }
        }
      }
      const now = clock.now();
      const day = localTime(now, rules.daily_count.params.timezone).day;
      return {
        rules: RULE_CODES.map((code) => ({ code, enabled: rules[code].enabled, params: rules[code].params })),
        available,
        withdrawable,
        held,
        used_today: auth.isDemo ? 0 : await repo.countToday(db, auth.customerId, day),
        ...status,
      };
    },

    async request(auth: AuthContext, input: RequestInput) {
      if (auth.isDemo) refuse('REAL_ACCOUNT_REQUIRED');
      if (!isKnownAsset(input.currency)) refuse('CURRENCY_UNKNOWN', { currency: input.currency });
      const amountUnits = parseAmount('amount', input.amount, input.currency);
      const dest = await destinationOf(auth, input);
      const rules = await loadRules();
      const now = clock.now();
      checkRequest(rules, {
        method: input.method,
        currency: input.currency,
        chain: dest.chain,
        amountUnits,
        now,
      });
      await security.checkTradePassword(auth.customerId, input.tradePassword);
      await security.checkGoogle(auth.customerId, input.googleCode);
      const fee = feeOf(rules, { method: input.method, amountUnits });
      const day = localTime(now, rules.daily_count.params.timezone).day;
      const id = newId('wdr', now.getTime());
      return inTransaction(db, async (tx) => {
        // One customer's requests serialize on their trade-password row: the daily count holds.
        await repo.findTradePassword(tx, auth.customerId, { lock: true });
        checkDailyCount(rules, await repo.countToday(tx, auth.customerId, day));
        if (rules.turnover.enabled) {
          const figures = await repo.turnoverFigures(tx, {
            customerId: auth.customerId,
            currency: input.currency,
          });
          const balance = await ledger.balance(tx, {
            book: 'real',
            customerId: auth.customerId,
            accountType: WITHDRAW_ACCOUNT_TYPE,
            currency: input.currency,
          });
          checkTurnover(rules, {
            amountUnits,
            availableUnits: balance.availableUnits,
            promotionalUnits: figures.promotional,
            consumedUnits: figures.consumed,
            currency: input.currency,
            format: (u) => fmt(u, input.currency),
          });
        }
        const row: repo.WithdrawalRow = {
          id,
          customer_id: auth.customerId,
          method: input.method,
          destination_id: input.destinationId,
          destination: dest.destination,
          destination_label: dest.label,
          currency: input.currency,
          chain: dest.chain,
          memo: dest.memo,
          amount: amountUnits.toString(),
          fee: fee.toString(),
          received: (amountUnits - fee).toString(),
          status: 'pending',
          policy_day: day,
          reject_reason: null,
          decided_by: null,
          provider_ref: null,
          tx_hash: null,
          created_at: now,
          updated_at: now,
          decided_at: null,
          settled_at: null,
        };
        await repo.insertWithdrawal(tx, row);
        await ledger.freeze(tx, {
          book: 'real',
          customerId: auth.customerId,
          accountType: WITHDRAW_ACCOUNT_TYPE,
          currency: input.currency,
          amountUnits,
          reason: 'withdrawal.request',
          reference: { type: 'withdrawal', id },
          idempotencyKey: `wdr-freeze:${id}`,
        });
        deps.log.info({ withdrawal: id, customer: auth.customerId }, 'withdrawal requested');
        return view(row);
      });
    },

    async cancel(auth: AuthContext, withdrawalId: string) {
      return inTransaction(db, async (tx) => {
        const row = await repo.findWithdrawal(tx, withdrawalId, { customerId: auth.customerId, lock: true });
        if (!row) refuse('NOT_FOUND');
        if (row.status !== 'pending') refuse('WITHDRAW_NOT_PENDING');
        await ledger.unfreeze(tx, {
          book: 'real',
          customerId: row.customer_id,
          accountType: WITHDRAW_ACCOUNT_TYPE,
          currency: row.currency,
          amountUnits: BigInt(row.amount),
          reason: 'withdrawal.cancel',
          reference: { type: 'withdrawal', id: row.id },
          idempotencyKey: `wdr-release:${row.id}`,
        });
        const now = clock.now();
        await repo.updateWithdrawal(tx, row.id, { status: 'cancelled', updated_at: now });
        return view({ ...row, status: 'cancelled', updated_at: now });
      });
    },

    async list(filter: repo.WithdrawalFilter, page: { page: number; pageSize: number }) {
      const { rows, total } = await repo.listWithdrawals(db, filter, {
        offset: (page.page - 1) * page.pageSize,
        limit: page.pageSize,
      });
      return { list: rows.map(view), total, page: page.page, page_size: page.pageSize };
    },

    async exportRows(filter: repo.WithdrawalFilter) {
      const { rows } = await repo.listWithdrawals(db, filter, { offset: 0, limit: EXPORT_ROWS_MAX });
      return rows.map(view);
    },

    staffEnabled: deps.audit !== null,
    approve: (staffId: string, withdrawalId: string) => decide(staffId, withdrawalId, 'approve'),
    reject: (staffId: string, withdrawalId: string, reason: string) => {
      const why = reason.trim();
      if (why === '') refuse('FIELD_REQUIRED', { field: 'reason' });
      if (why.length > REJECT_REASON_MAX)
        refuse('FIELD_TOO_LONG', { field: 'reason', max: REJECT_REASON_MAX });
      return decide(staffId, withdrawalId, 'reject', why);
    },

    /** Staff edit of one rule (settings.write), audited with before and after. */
    async updateRule(staffId: string, input: { code: string; enabled: boolean; params: unknown }) {
      const audit = deps.audit;
      if (!audit) throw new Error('staff calls need the audit log');
      if (!(RULE_CODES as readonly string[]).includes(input.code)) refuse('NOT_FOUND');
      const code = input.code as RuleCode;
      if (typeof input.params !== 'object' || input.params === null || Array.isArray(input.params)) {
        refuse('BAD_INPUT', { field: 'params' });
      }
      const params = input.params as Record<string, unknown>;
      const bad = invalidParam(code, params);
      if (bad) refuse('BAD_INPUT', { field: bad });
      return inTransaction(db, async (tx) => {
        const before = await repo.findRule(tx, code, { lock: true });
        if (!before) refuse('NOT_FOUND');
        const now = clock.now();
        await repo.updateRule(tx, code, {
          enabled: input.enabled,
          params,
          updated_at: now,
          updated_by: staffId,
        });
        await audit.record(tx, {
          actorId: staffId,
          action: 'withdrawal_rule.update',
          targetType: 'withdrawal_rule',
          targetId: code,
          before: { enabled: before.enabled, params: before.params },
          after: { enabled: input.enabled, params },
        });
        return { code, enabled: input.enabled, params };
      });
    },

    /**
     * The custody provider's report on an approved withdrawal. Settles once: a replay finds the
     * withdrawal no longer processing and changes nothing.
     */
    async settle(input: {
      withdrawalId: string;
      providerRef: string;
      status: 'confirmed' | 'failed';
      txHash: string;
    }) {
      return inTransaction(db, async (tx) => {
        const row = await repo.findWithdrawal(tx, input.withdrawalId, { lock: true });
        if (!row || row.provider_ref !== input.providerRef) refuse('NOT_FOUND');
        if (row.status !== 'processing') return { id: row.id, state: row.status, replayed: true };
        const now = clock.now();
        const customer = {
          book: 'real' as const,
          customerId: row.customer_id,
          accountType: WITHDRAW_ACCOUNT_TYPE,
        };
        if (input.status === 'confirmed') {
          const fee = BigInt(row.fee);
          await ledger.post(tx, {
            reason: 'withdrawal.settle',
            reference: { type: 'withdrawal', id: row.id },
            idempotencyKey: `wdr-settle:${row.id}`,
            postings: [
              {
                account: customer,
                currency: row.currency,
                bucket: 'frozen',
                amountUnits: -BigInt(row.amount),
              },
              {
                account: { book: 'real', platform: 'withdrawals_clearing' },
                currency: row.currency,
                amountUnits: BigInt(row.received),
              },
              ...(fee > 0n
                ? [
                    {
                      account: { book: 'real' as const, platform: 'fee_income' as const },
                      currency: row.currency,
                      amountUnits: fee,
                    },
                  ]
                : []),
            ],
          });
          await repo.updateWithdrawal(tx, row.id, {
            status: 'completed',
            tx_hash: input.txHash || null,
            settled_at: now,
            updated_at: now,
          });
          return { id: row.id, state: 'completed' as const, replayed: false };
        }
        await ledger.unfreeze(tx, {
          ...customer,
          currency: row.currency,
          amountUnits: BigInt(row.amount),
          reason: 'withdrawal.fail',
          reference: { type: 'withdrawal', id: row.id },
          idempotencyKey: `wdr-release:${row.id}`,
        });
        await repo.updateWithdrawal(tx, row.id, { status: 'failed', settled_at: now, updated_at: now });
        return { id: row.id, state: 'failed' as const, replayed: false };
      });
    },
  };
}

export type Withdrawals = ReturnType<typeof createWithdrawals>;
