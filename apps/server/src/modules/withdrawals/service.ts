import { translate } from '@bourse/i18n';
import { isKnownAsset, scaleOf, toDecimalString } from '@bourse/money';
import { type CustomerSummary, isLang } from '@bourse/protocol';
import type { Logger } from 'pino';
import { type Db, inTransaction, type Tx } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { refuse } from '../../http/refusal.ts';
import type { AuditLog } from '../../http/staff.ts';
import type { Clock } from '../../lib/clock.ts';
import { EXPORT_ROWS_MAX } from '../../lib/csv.ts';
import { newId } from '../../lib/ids.ts';
import type { Contact } from '../accounts/index.ts';
import { parseAmount } from '../assets/index.ts';
import type { Ledger } from '../ledger/index.ts';
import type { Notifier } from '../notify/index.ts';
import type { Book } from './book.ts';
import { explorerUrl } from './chains.ts';
import {
  checkDailyCount,
  checkRequest,
  checkTurnover,
  feeOf,
  INT_BOUNDS,
  invalidParam,
  localTime,
  RULE_CODES,
  type RuleCode,
  rulesFrom,
  turnoverHold,
  units,
} from './policy.ts';
import type { PayoutProvider } from './provider.ts';
import * as repo from './repo.ts';
import { riskFlags } from './risk.ts';
import type { Security } from './security.ts';
import type { WithdrawalStatus } from './tables.ts';

/** Withdrawals pay out of the customer's spot account. */
export const WITHDRAW_ACCOUNT_TYPE = 'spot' as const;
export const PAGE_SIZE_MAX = 100;
export const REJECT_REASON_MAX = 500;
export const BANK_REFERENCE_MAX = 64;
/** Why a payout failed; the customer reads each in their language (withdraw catalogue `failReason`). */
export const PAYOUT_FAIL_REASONS = [
  'network_rejected',
  'destination_rejected',
  'provider_error',
  'bank_returned',
] as const;
export type PayoutFailReason = (typeof PAYOUT_FAIL_REASONS)[number];
/** How many due payouts one run of the payout job settles (each in its own transaction). */
export const PAYOUT_BATCH = 100;

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
  /** Tells the customer about every state change of their withdrawal (after it commits). */
  notifier?: Notifier | null;
  /** The staff queue's customer context, a page at a time (staff/customer-context.ts, wired by app.ts). */
  customerSummaries: (customerIds: readonly string[], now: Date) => Promise<Map<string, CustomerSummary>>;
  /** Where to tell them (the accounts module's `contactOf`); needed with `notifier`. */
  contacts?: { contactOf(customerId: string): Promise<Contact | null> } | null;
  /**
   * Four-eyes on bank payouts: marking paid a bank withdrawal of more than this (a decimal in the
   * withdrawal's currency; BANK_PAYOUT_APPROVAL_THRESHOLD) needs a second staff member to confirm.
   */
  bankPaidApprovalThreshold?: string;
  /** Test hook: runs inside a payout's settling transaction after its ledger entry (a crash there rolls it back). */
  afterSettlePost?: (withdrawalId: string) => void | Promise<void>;
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
    fail_reason: row.fail_reason ?? '',
    tx_hash: row.tx_hash ?? '',
    explorer_url: explorerUrl(row.chain, row.tx_hash),
    bank_reference: row.bank_reference ?? '',
    paid_requested: row.paid_requested_by ? 1 : 0,
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
  /** Test hooks (see WithdrawalsDeps.afterSettlePost); tests may set them on the service. */
  const faults: { afterSettlePost?: ((withdrawalId: string) => void | Promise<void>) | undefined } = {
    afterSettlePost: deps.afterSettlePost,
  };

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

  function checkReason(text: string): string {
    const why = text.trim();
    if (why === '') refuse('FIELD_REQUIRED', { field: 'reason' });
    if (why.length > REJECT_REASON_MAX) refuse('FIELD_TOO_LONG', { field: 'reason', max: REJECT_REASON_MAX });
    return why;
  }

  function checkNote(text: string): string {
    const note = text.trim();
    if (note === '') refuse('FIELD_REQUIRED', { field: 'note' });
    if (note.length > REJECT_REASON_MAX) refuse('FIELD_TOO_LONG', { field: 'note', max: REJECT_REASON_MAX });
    return note;
  }

  /**
   * Ends a processing withdrawal in the caller's transaction (its row locked): confirmed consumes
   * the frozen amount (to `withdrawals_clearing`, the fee to `fee_income`); failed unfreezes it.
   * The payout row, when the embedded provider keeps one, ends with it.
   */
  async function finish(
    tx: Tx,
    row: repo.WithdrawalRow,
    outcome:
      | { status: 'confirmed'; txHash: string | null; bankReference?: string }
      | { status: 'failed'; reason: PayoutFailReason },
    actorId?: string,
  ): Promise<repo.WithdrawalRow> {
    const now = clock.now();
    const customer = {
      book: 'real' as const,
      customerId: row.customer_id,
      accountType: WITHDRAW_ACCOUNT_TYPE,
    };
    let patch: Partial<repo.WithdrawalRow>;
    if (outcome.status === 'confirmed') {
      const fee = BigInt(row.fee);
      await ledger.post(tx, {
        reason: 'withdrawal.settle',
        reference: { type: 'withdrawal', id: row.id },
        idempotencyKey: `wdr-settle:${row.id}`,
        ...(actorId ? { actorId } : {}),
        postings: [
          { account: customer, currency: row.currency, bucket: 'frozen', amountUnits: -BigInt(row.amount) },
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
      patch = {
        status: 'completed',
        tx_hash: outcome.txHash,
        ...(outcome.bankReference ? { bank_reference: outcome.bankReference } : {}),
      };
    } else {
      await ledger.unfreeze(tx, {
        ...customer,
        currency: row.currency,
        amountUnits: BigInt(row.amount),
        reason: 'withdrawal.fail',
        reference: { type: 'withdrawal', id: row.id },
        idempotencyKey: `wdr-release:${row.id}`,
        ...(actorId ? { actorId } : {}),
        memo: outcome.reason,
      });
      patch = { status: 'failed', fail_reason: outcome.reason };
    }
    await faults.afterSettlePost?.(row.id);
    Object.assign(patch, { settled_at: now, updated_at: now });
    await repo.updateWithdrawal(tx, row.id, patch);
    const payout = await repo.findPayout(tx, row.id, { lock: true });
    if (payout && payout.status === 'broadcast') {
      await repo.updatePayout(tx, payout.id, {
        status: outcome.status === 'confirmed' ? 'confirmed' : 'failed',
        settled_at: now,
      });
    }
    return { ...row, ...patch };
  }

  /**
   * Tells the customer (email, else SMS; the outbox in the embedded set-up) that their withdrawal
   * changed state, in their language. After the change commits; a failure to tell is logged and
   * does not undo the change.
   */
  async function notify(row: repo.WithdrawalRow): Promise<void> {
    const notifier = deps.notifier;
    const contacts = deps.contacts;
    if (!notifier || !contacts) return;
    try {
      const contact = await contacts.contactOf(row.customer_id);
      const recipient = contact?.email ?? contact?.phone;
      if (!contact || !recipient) return;
      const lang = isLang(contact.language) ? contact.language : 'en';
      const params = {
        amount: fmt(row.amount, row.currency),
        received: fmt(row.received, row.currency),
        currency: row.currency,
        id: row.id,
        tx: row.tx_hash ?? '',
        reference: row.bank_reference ?? '',
        reason: row.fail_reason
          ? translate(lang, `message.withdrawalFailReason.${row.fail_reason}`)
          : (row.reject_reason ?? ''),
      };
      await notifier.send({
        channel: contact.email ? 'email' : 'sms',
        recipient,
        subject: translate(lang, `message.withdrawal.${row.status}Subject`, params),
        body: translate(lang, `message.withdrawal.${row.status}Body`, params),
      });
    } catch (error) {
      deps.log.warn({ err: error, withdrawal: row.id }, 'withdrawal notice could not be sent');
    }
  }

  async function decide(
    staffId: string,
    withdrawalId: string,
    action: 'approve' | 'reject',
    reason?: string,
  ) {
    const audit = deps.audit;
    if (!audit) throw new Error('staff calls need the audit log');
    const decided = await inTransaction(db, async (tx) => {
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
        patch = { status: 'processing', provider_ref: sent.providerRef, tx_hash: sent.txHash };
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
      return after;
    });
    await notify(decided);
    return view(decided);
  }

  return {
    loadRules,
    faults,

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
      const requested = await inTransaction(db, async (tx) => {
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
          fail_reason: null,
          bank_reference: null,
          paid_requested_by: null,
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
        return row;
      });
      await notify(requested);
      return view(requested);
    },

    async cancel(auth: AuthContext, withdrawalId: string) {
      const cancelled = await inTransaction(db, async (tx) => {
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
        return { ...row, status: 'cancelled' as const, updated_at: now };
      });
      await notify(cancelled);
      return view(cancelled);
    },

    async list(filter: repo.WithdrawalFilter, page: { page: number; pageSize: number }) {
      const { rows, total } = await repo.listWithdrawals(db, filter, {
        offset: (page.page - 1) * page.pageSize,
        limit: page.pageSize,
      });
      return { list: rows.map(view), total, page: page.page, page_size: page.pageSize };
    },

    /**
     * The staff queue: each row with its customer (summary, recent activity), the destination's
     * history and the risk flags it raises. A fixed number of queries per page (no query per row).
     */
    async queue(filter: repo.WithdrawalFilter, page: { page: number; pageSize: number }) {
      const { rows, total } = await repo.listWithdrawals(db, filter, {
        offset: (page.page - 1) * page.pageSize,
        limit: page.pageSize,
      });
      const now = clock.now();
      const [customers, histories] = await Promise.all([
        deps.customerSummaries(
          rows.map((r) => r.customer_id),
          now,
        ),
        repo.destinationHistories(
          db,
          rows.map((r) => r.id),
        ),
      ]);
      const list = rows.map((row) => {
        const customer = customers.get(row.customer_id) ?? null;
        const destination = histories.get(row.id) ?? {
          used_before: 0,
          first_used_at: null,
          other_customers: 0,
        };
        const risk = customer
          ? riskFlags({
              amountUnits: BigInt(row.amount),
              notCountedUnits: ['pending', 'processing', 'completed'].includes(row.status)
                ? 0n
                : BigInt(row.amount),
              currency: row.currency,
              customer,
              destination,
            })
          : [];
        const { totals: _totals, ...shown } = customer ?? { totals: null };
        return { ...view(row), customer: customer ? shown : null, destination_history: destination, risk };
      });
      return { list, total, page: page.page, page_size: page.pageSize };
    },

    async exportRows(filter: repo.WithdrawalFilter) {
      const { rows } = await repo.listWithdrawals(db, filter, { offset: 0, limit: EXPORT_ROWS_MAX });
      return rows.map(view);
    },

    staffEnabled: deps.audit !== null,
    /** Every money decision carries the staff member's reason (audited with it). */
    approve: (staffId: string, withdrawalId: string, reason: string) =>
      decide(staffId, withdrawalId, 'approve', checkReason(reason)),
    reject: (staffId: string, withdrawalId: string, reason: string) =>
      decide(staffId, withdrawalId, 'reject', checkReason(reason)),

    /** Staff edit of one rule (settings.write), audited with before and after. */
    async updateRule(
      staffId: string,
      input: { code: string; enabled: boolean; params: unknown; reason: string },
    ) {
      const audit = deps.audit;
      if (!audit) throw new Error('staff calls need the audit log');
      if (!(RULE_CODES as readonly string[]).includes(input.code)) refuse('NOT_FOUND');
      const code = input.code as RuleCode;
      if (typeof input.params !== 'object' || input.params === null || Array.isArray(input.params)) {
        refuse('BAD_INPUT', { field: 'params' });
      }
      const params = input.params as Record<string, unknown>;
      const bad = invalidParam(code, params);
      if (bad) {
        const bounds = INT_BOUNDS[`${code}.${bad}`];
        if (bounds) refuse('WITHDRAW_RULE_RANGE', { field: bad, min: bounds[0], max: bounds[1] });
        refuse('BAD_INPUT', { field: bad });
      }
      const reason = checkReason(input.reason);
      return inTransaction(db, async (tx) => {
        // Both amount rules locked in one order: a minimum above the maximum is refused, even
        // when two staff members change them at once.
        const locked = await repo.lockRules(tx, ['min_amount', 'max_amount', code]);
        const before = locked.get(code);
        if (!before) refuse('NOT_FOUND');
        if (code === 'min_amount' || code === 'max_amount') {
          const other = locked.get(code === 'min_amount' ? 'max_amount' : 'min_amount');
          const mine = params as { amount: string; currency: string };
          const theirs = other?.params as { amount?: string; currency?: string } | undefined;
          if (theirs?.amount && theirs.currency === mine.currency) {
            const [min, max] =
              code === 'min_amount' ? [mine.amount, theirs.amount] : [theirs.amount, mine.amount];
            if (units(min, mine.currency) > units(max, mine.currency))
              refuse('WITHDRAW_RULE_MIN_ABOVE_MAX', { min, max, currency: mine.currency });
          }
        }
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
          reason,
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
      const result = await inTransaction(db, async (tx) => {
        const row = await repo.findWithdrawal(tx, input.withdrawalId, { lock: true });
        if (!row || row.provider_ref !== input.providerRef) refuse('NOT_FOUND');
        if (row.status !== 'processing') return { row, replayed: true };
        const after = await finish(
          tx,
          row,
          input.status === 'confirmed'
            ? { status: 'confirmed', txHash: input.txHash || row.tx_hash }
            : { status: 'failed', reason: 'provider_error' },
        );
        return { row: after, replayed: false };
      });
      if (!result.replayed) await notify(result.row);
      return { id: result.row.id, state: result.row.status, replayed: result.replayed };
    },

    /**
     * The payout job's run: every simulated-chain broadcast whose confirmation instant has come
     * (`confirm_at <= clock.now()`) is settled, each in its own transaction. Exactly once: a
     * payout already settled (by a concurrent run, the webhook or staff) is skipped; the ledger's
     * `wdr-settle:` key backs that up. Returns how many this run settled.
     */
    async confirmDuePayouts(limit = PAYOUT_BATCH): Promise<number> {
      const due = await repo.duePayouts(db, clock.now(), limit);
      let settled = 0;
      for (const payout of due) {
        const after = await inTransaction(db, async (tx) => {
          const row = await repo.findWithdrawal(tx, payout.withdrawal_id, { lock: true });
          const locked = await repo.findPayout(tx, payout.withdrawal_id, { lock: true });
          if (!row || !locked || locked.status !== 'broadcast' || row.status !== 'processing') return null;
          return finish(tx, row, { status: 'confirmed', txHash: locked.tx_hash });
        });
        if (after) {
          settled += 1;
          deps.log.info({ withdrawal: after.id, tx: after.tx_hash }, 'payout confirmed');
          await notify(after);
        }
      }
      return settled;
    },

    /**
     * Staff: a payout that will not arrive (the chain or bank refused it). Processing only; the
     * frozen amount is unfrozen, the customer reads the reason in their language; audited with the
     * staff note in the same transaction. On the simulated chain the broadcast is dropped.
     */
    async markFailed(staffId: string, input: { withdrawalId: string; reason: string; note: string }) {
      const audit = deps.audit;
      if (!audit) throw new Error('staff calls need the audit log');
      if (!(PAYOUT_FAIL_REASONS as readonly string[]).includes(input.reason))
        refuse('BAD_INPUT', { field: 'reason' });
      const note = checkNote(input.note);
      const after = await inTransaction(db, async (tx) => {
        const row = await repo.findWithdrawal(tx, input.withdrawalId, { lock: true });
        if (!row) refuse('NOT_FOUND');
        if (row.status !== 'processing') refuse('WITHDRAW_NOT_PROCESSING');
        const done = await finish(
          tx,
          row,
          { status: 'failed', reason: input.reason as PayoutFailReason },
          staffId,
        );
        await audit.record(tx, {
          actorId: staffId,
          action: 'withdrawal.fail',
          targetType: 'withdrawal',
          targetId: row.id,
          before: { status: row.status },
          after: { status: done.status, fail_reason: done.fail_reason },
          reason: note,
        });
        return done;
      });
      await notify(after);
      return view(after);
    },

    /** Staff: a bank withdrawal was paid, with the bank's reference. Processing bank withdrawals only; audited. */
    async markPaid(staffId: string, input: { withdrawalId: string; bankReference: string; note: string }) {
      const audit = deps.audit;
      if (!audit) throw new Error('staff calls need the audit log');
      const reference = input.bankReference.trim();
      if (reference === '') refuse('FIELD_REQUIRED', { field: 'bank_reference' });
      if (reference.length > BANK_REFERENCE_MAX)
        refuse('FIELD_TOO_LONG', { field: 'bank_reference', max: BANK_REFERENCE_MAX });
      const note = checkNote(input.note);
      const result = await inTransaction(db, async (tx) => {
        const row = await repo.findWithdrawal(tx, input.withdrawalId, { lock: true });
        if (!row) refuse('NOT_FOUND');
        if (row.method !== 'bank') refuse('WITHDRAW_NOT_BANK');
        if (row.status !== 'processing') refuse('WITHDRAW_NOT_PROCESSING');
        const threshold = parseAmount('threshold', deps.bankPaidApprovalThreshold ?? '10000', row.currency);
        if (BigInt(row.amount) > threshold) {
          if (!row.paid_requested_by) {
            // The first of two: kept with its reference; the withdrawal stays processing.
            const patch = { bank_reference: reference, paid_requested_by: staffId, updated_at: clock.now() };
            await repo.updateWithdrawal(tx, row.id, patch);
            await audit.record(tx, {
              actorId: staffId,
              action: 'withdrawal.paid_request',
              targetType: 'withdrawal',
              targetId: row.id,
              before: { status: row.status },
              after: { status: row.status, bank_reference: reference, awaiting: 'second staff member' },
              reason: note,
            });
            return { row: { ...row, ...patch }, done: false };
          }
          if (row.paid_requested_by === staffId) refuse('WITHDRAW_PAID_SECOND_STAFF');
          if (row.bank_reference !== reference) refuse('BAD_INPUT', { field: 'bank_reference' });
        }
        const done = await finish(
          tx,
          row,
          { status: 'confirmed', txHash: null, bankReference: reference },
          staffId,
        );
        await audit.record(tx, {
          actorId: staffId,
          action: 'withdrawal.paid',
          targetType: 'withdrawal',
          targetId: row.id,
          before: { status: row.status, paid_requested_by: row.paid_requested_by },
          after: { status: done.status, bank_reference: reference },
          reason: note,
        });
        return { row: done, done: true };
      });
      if (result.done) await notify(result.row);
      return view(result.row);
    },
  };
}

export type Withdrawals = ReturnType<typeof createWithdrawals>;
