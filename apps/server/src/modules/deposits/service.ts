import { createHash } from 'node:crypto';
import { parseDecimal, scaleOf, toDecimalString } from '@bourse/money';
import {
  ASSET_LIMITS,
  type BankRechargeBody,
  type BankRechargeData,
  type CustodyDepositEvent,
  type RechargeAddressData,
  type RechargeChannel,
  type RecordItem,
  type RecordStatus,
  type UploadProofData,
} from '@bourse/protocol';
import { type Selectable, sql } from 'kysely';
import type { Logger } from 'pino';
import { type Db, inTransaction, type Tx } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { refuse } from '../../http/refusal.ts';
import type { AuditLog, StaffContext } from '../../http/staff.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { knownCurrency, parseAmount, type RecordSource } from '../assets/index.ts';
import type { Ledger } from '../ledger/index.ts';
import { customerSummaries } from '../staff/customer-context.ts';
import { isChain } from './derive.ts';
import type { CustodyProvider } from './provider.ts';
import type { DepositsTables } from './tables.ts';

type ChannelRow = Selectable<DepositsTables['deposits_channel']>;
type CryptoRow = Selectable<DepositsTables['deposits_crypto']>;

/** Deposits land in the customer's spot account (what they trade from). */
export const DEPOSIT_ACCOUNT_TYPE = 'spot' as const;

export type DepositsDeps = {
  db: Db;
  ledger: Ledger;
  clock: Clock;
  log: Logger;
  provider: CustodyProvider;
  audit: AuditLog;
};

export function channelData(row: ChannelRow): RechargeChannel {
  return {
    currency: row.currency,
    chain: row.chain,
    kind: row.kind,
    open: row.open,
    min_amount: toDecimalString(BigInt(row.min_units), scaleOf(row.currency)),
    confirmations: row.confirmations,
    instructions: row.instructions,
  };
}

/** What an uploaded file really is, by its first bytes (never by its name or declared type). */
export function sniffImage(bytes: Uint8Array): 'image/png' | 'image/jpeg' | null {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  return null;
}

function cryptoStatus(status: CryptoRow['status']): RecordStatus {
  return status === 'credited' ? 2 : status === 'failed' ? 0 : 1;
}
function bankStatus(status: 'pending' | 'confirmed' | 'rejected'): RecordStatus {
  return status === 'confirmed' ? 2 : status === 'rejected' ? 0 : 1;
}

export function createDeposits(deps: DepositsDeps) {
  const { db, ledger, provider, audit, clock } = deps;

  async function channel(q: Db | Tx, currency: string, chain: string): Promise<ChannelRow | undefined> {
    return q
      .selectFrom('deposits_channel')
      .selectAll()
      .where('currency', '=', currency)
      .where('chain', '=', chain)
      .executeTakeFirst();
  }

  function realOnly(auth: AuthContext): void {
    if (auth.isDemo) refuse('REAL_ACCOUNT_REQUIRED');
  }

  /** Credits one crypto deposit row (inside the caller's transaction) and marks it credited. */
  async function creditCrypto(tx: Tx, row: CryptoRow, releasedBy: string, actorId: string | null) {
    const entry = await ledger.credit(tx, {
      book: 'real',
      customerId: row.customer_id,
      accountType: DEPOSIT_ACCOUNT_TYPE,
      currency: row.currency,
      amountUnits: BigInt(row.amount_units),
      from: 'deposits_clearing',
      reason: 'deposit.crypto',
      reference: { type: 'deposit', id: row.id },
      // Exactly once per (chain, transaction, output), whatever replays or races.
      idempotencyKey: `deposit:${row.chain}:${row.txid}:${row.output_index}`,
      actorId,
      memo: `${row.chain} ${row.txid}:${row.output_index}`,
    });
    await tx
      .updateTable('deposits_crypto')
      .set({ status: 'credited', entry_id: entry.id, released_by: releasedBy, updated_at: clock.now() })
      .where('id', '=', row.id)
      .execute();
    return entry;
  }

  /**
   * Held deposits (confirmed, each below the minimum) of one customer and currency are credited
   * together once their sum reaches the channel's minimum. Serialized per (customer, currency).
   */
  async function releaseHeldIfEnough(tx: Tx, customerId: string, currency: string, minUnits: bigint) {
    await sql`select pg_advisory_xact_lock(hashtext(${`deposits-held:${customerId}:${currency}`}))`.execute(
      tx,
    );
    const held = await tx
      .selectFrom('deposits_crypto')
      .selectAll()
      .where('customer_id', '=', customerId)
      .where('currency', '=', currency)
      .where('status', '=', 'held')
      .orderBy('id')
      .forUpdate()
      .execute();
    const total = held.reduce((sum, r) => sum + BigInt(r.amount_units), 0n);
    if (total < minUnits) return 0;
    for (const row of held) await creditCrypto(tx, row, 'cumulative', null);
    return held.length;
  }

  const rechargeSource: RecordSource = {
    kinds: ['recharge'],
    async list(q, input) {
      if (input.book !== 'real') return { total: 0, types: ['crypto', 'bank'], items: [] };
      const f = input.filters;
      const crypto = q
        .selectFrom('deposits_crypto')
        .select([
          'id',
          'created_at',
          sql<string>`'crypto'`.as('type'),
          'currency',
          'amount_units',
          sql<string>`status`.as('status'),
          // The network and transaction hash: what the customer can look up on an explorer.
          sql<string>`chain || ' ' || txid`.as('detail'),
          sql<string | null>`null`.as('failure'),
        ])
        .where('customer_id', '=', input.customerId);
      const bank = q
        .selectFrom('deposits_bank')
        .select([
          'id',
          'created_at',
          sql<string>`'bank'`.as('type'),
          'currency',
          'amount_units',
          sql<string>`case status when 'pending' then 'pending' when 'confirmed' then 'credited' else 'failed' end`.as(
            'status',
          ),
          sql<string>`reference`.as('detail'),
          sql<string | null>`reject_reason`.as('failure'),
        ])
        .where('customer_id', '=', input.customerId);
      let all = q.selectFrom(crypto.unionAll(bank).as('d')).selectAll();
      if (f.type) all = all.where('type', '=', f.type);
      if (f.currency) all = all.where('currency', '=', f.currency);
      if (f.fromMs !== null) all = all.where('created_at', '>=', new Date(f.fromMs));
      if (f.toMs !== null) all = all.where('created_at', '<', new Date(f.toMs));
      if (f.status !== null) {
        const statuses = f.status === 2 ? ['credited'] : f.status === 0 ? ['failed'] : ['pending', 'held'];
        all = all.where('status', 'in', statuses);
      }
      const [count, rows] = await Promise.all([
        all
          .clearSelect()
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow(),
        all
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .offset(input.offset)
          .limit(input.limit)
          .execute(),
      ]);
      const items = rows.map(
        (r): RecordItem => ({
          id: r.id,
          time: r.created_at.getTime(),
          type: r.type,
          currency: r.currency,
          amount: toDecimalString(BigInt(r.amount_units), scaleOf(r.currency)),
          account_type: DEPOSIT_ACCOUNT_TYPE,
          status: cryptoStatus(r.status as CryptoRow['status']),
          held: r.status === 'held',
          detail: r.detail,
          ref: { kind: 'deposit', id: r.id },
          ...(r.failure ? { failure: r.failure } : {}),
        }),
      );
      return { total: Number(count.n), types: ['crypto', 'bank'], items };
    },
  };

  const service = {
    rechargeSource,

    async channels(): Promise<RechargeChannel[]> {
      const rows = await db
        .selectFrom('deposits_channel')
        .selectAll()
        .orderBy('sort')
        .orderBy('currency')
        .execute();
      return rows.map(channelData);
    },

    /** For getCurrencyAll: the deposit networks of one currency. */
    async chainsOf(currency: string) {
      const rows = await db
        .selectFrom('deposits_channel')
        .selectAll()
        .where('currency', '=', currency)
        .where('kind', '=', 'crypto')
        .orderBy('sort')
        .execute();
      return rows.map((r) => {
        const c = channelData(r);
        return { chain: c.chain, open: c.open, min_amount: c.min_amount, confirmations: c.confirmations };
      });
    },

    /** The customer's deposit address for a currency on a chain; a closed channel refuses (spec 8). */
    async address(auth: AuthContext, currency: string, chain: string): Promise<RechargeAddressData> {
      realOnly(auth);
      knownCurrency(currency);
      const row = await channel(db, currency, chain);
      if (row?.kind !== 'crypto' || !isChain(chain)) refuse('BAD_INPUT', { field: 'chain' });
      if (!row.open) refuse('RECHARGE_CHANNEL_CLOSED', { currency, chain });
      const address = await provider.depositAddress(auth.customerId, chain);
      const c = channelData(row);
      return { currency, chain, address, min_amount: c.min_amount, confirmations: c.confirmations };
    },

    /** Stores a remittance proof image (JPG/PNG by content, ≤ 8 MB) in PostgreSQL. */
    async uploadProof(auth: AuthContext, bytes: Buffer): Promise<UploadProofData> {
      realOnly(auth);
      if (bytes.length > ASSET_LIMITS.proofBytesMax)
        refuse('UPLOAD_TOO_LARGE', { maxBytes: ASSET_LIMITS.proofBytesMax });
      const mime = sniffImage(bytes);
      if (!mime || bytes.length === 0) refuse('UPLOAD_TYPE_INVALID');
      const id = newId('prf', clock.now().getTime());
      await db
        .insertInto('deposits_proof')
        .values({
          id,
          customer_id: auth.customerId,
          mime,
          bytes,
          size: bytes.length,
          sha256: createHash('sha256').update(bytes).digest('hex'),
          created_at: clock.now(),
        })
        .execute();
      return { proof_id: id, bytes: bytes.length, type: mime };
    },

    /** A bank deposit: amount and remittance proof; finance staff confirm (credit) or reject it. */
    async bankRecharge(auth: AuthContext, body: BankRechargeBody): Promise<BankRechargeData> {
      realOnly(auth);
      const currency = knownCurrency(body.currency.trim());
      const row = await channel(db, currency, 'BANK');
      if (!row) refuse('RECHARGE_CHANNEL_CLOSED', { currency, chain: 'BANK' });
      if (!row.open) refuse('RECHARGE_CHANNEL_CLOSED', { currency, chain: 'BANK' });
      const amountUnits = parseAmount('amount', body.amount, currency);
      if (amountUnits < BigInt(row.min_units)) {
        refuse('RECHARGE_BELOW_MINIMUM', { minimum: channelData(row).min_amount, currency });
      }
      const reference = body.reference.trim();
      if (reference === '') refuse('FIELD_REQUIRED', { field: 'reference' });
      return inTransaction(db, async (tx) => {
        const proof = await tx
          .selectFrom('deposits_proof')
          .select('id')
          .where('id', '=', body.proof_id)
          .where('customer_id', '=', auth.customerId)
          .forUpdate()
          .executeTakeFirst();
        if (!proof) refuse('NOT_FOUND');
        const used = await tx
          .selectFrom('deposits_bank')
          .select('id')
          .where('proof_id', '=', proof.id)
          .executeTakeFirst();
        if (used) refuse('NOT_FOUND');
        const id = newId('bdp', clock.now().getTime());
        await tx
          .insertInto('deposits_bank')
          .values({
            id,
            customer_id: auth.customerId,
            currency,
            amount_units: amountUnits.toString(),
            reference,
            proof_id: proof.id,
            status: 'pending',
            created_at: clock.now(),
          })
          .execute();
        return { id, status: 1 as const };
      });
    },

    /**
     * One deposit event from the custody provider (already signature-checked). Recorded once per
     * (chain, txid, output); credited exactly once after the chain's confirmations; a failed
     * transaction credits nothing; a confirmed deposit below the minimum is held.
     */
    async handleEvent(event: CustodyDepositEvent) {
      const chain = event.chain;
      if (!isChain(chain)) refuse('BAD_INPUT', { field: 'chain' });
      const currency = knownCurrency(event.currency);
      const ch = await channel(db, currency, chain);
      if (ch?.kind !== 'crypto') refuse('BAD_INPUT', { field: 'currency' });
      const parsed = parseDecimal(event.amount, {
        scale: scaleOf(currency),
        allowZero: false,
        maxIntegerDigits: 20,
      });
      if (!parsed.ok) refuse('BAD_INPUT', { field: 'amount' });
      const customerId = await provider.ownerOf(chain, event.address);
      if (!customerId) refuse('NOT_FOUND');
      const amountUnits = parsed.units;
      const minUnits = BigInt(ch.min_units);

      return inTransaction(db, async (tx) => {
        const now = clock.now();
        await tx
          .insertInto('deposits_crypto')
          .values({
            id: newId('dep', now.getTime()),
            customer_id: customerId,
            chain,
            currency,
            txid: event.txid,
            output_index: event.output_index,
            address: event.address,
            amount_units: amountUnits.toString(),
            confirmations: event.confirmations,
            status: 'pending',
            entry_id: null,
            released_by: null,
            created_at: now,
            updated_at: now,
          })
          .onConflict((oc) => oc.columns(['chain', 'txid', 'output_index']).doNothing())
          .execute();
        const row = await tx
          .selectFrom('deposits_crypto')
          .selectAll()
          .where('chain', '=', chain)
          .where('txid', '=', event.txid)
          .where('output_index', '=', event.output_index)
          .forUpdate()
          .executeTakeFirstOrThrow();
        // The same output cannot change what it paid or to whom.
        if (
          row.currency !== currency ||
          BigInt(row.amount_units) !== amountUnits ||
          row.customer_id !== customerId
        ) {
          refuse('BAD_INPUT', { field: 'amount' });
        }
        const confirmations = Math.max(row.confirmations, event.confirmations);
        await tx
          .updateTable('deposits_crypto')
          .set({ confirmations, events: sql`events + 1`, updated_at: now })
          .where('id', '=', row.id)
          .execute();
        let status = row.status;
        let credited = false;
        if (status === 'pending' && event.status === 'failed') {
          status = 'failed';
          await tx.updateTable('deposits_crypto').set({ status }).where('id', '=', row.id).execute();
        } else if (status === 'pending' && confirmations >= ch.confirmations) {
          if (amountUnits >= minUnits) {
            await creditCrypto(tx, row, 'threshold', null);
            status = 'credited';
            credited = true;
          } else {
            status = 'held';
            await tx.updateTable('deposits_crypto').set({ status }).where('id', '=', row.id).execute();
            const released = await releaseHeldIfEnough(tx, customerId, currency, minUnits);
            if (released > 0) {
              status = 'credited';
              credited = true;
            }
          }
        } else if (row.status === 'credited' && event.status === 'failed') {
          deps.log.error(
            { deposit: row.id },
            'custody reported a credited deposit as failed: needs staff review',
          );
        }
        return { id: row.id, status: cryptoStatus(status), state: status, confirmations, credited };
      });
    },

    // ---- Staff side (routes under /api/admin check the permission; each action is audited) ----

    async queue(input: { status?: 'open' | 'all' } = {}) {
      const open = input.status !== 'all';
      let crypto = db.selectFrom('deposits_crypto').selectAll().orderBy('created_at', 'desc').limit(200);
      if (open) crypto = crypto.where('status', 'in', ['pending', 'held']);
      let bank = db
        .selectFrom('deposits_bank')
        .select([
          'id',
          'customer_id',
          'currency',
          'amount_units',
          'reference',
          'proof_id',
          'status',
          'reject_reason',
          'decided_by',
          'decided_at',
          'created_at',
        ])
        .orderBy('created_at', 'desc')
        .limit(200);
      if (open) bank = bank.where('status', '=', 'pending');
      const [c, b] = await Promise.all([crypto.execute(), bank.execute()]);
      // Who is being credited: one summary per customer on the page, in a fixed number of queries.
      const customers = await customerSummaries(
        db,
        [...c.map((r) => r.customer_id), ...b.map((r) => r.customer_id)],
        clock.now(),
      );
      const customerOf = (customerId: string) => {
        const summary = customers.get(customerId);
        if (!summary) return null;
        const { totals: _totals, ...shown } = summary;
        return shown;
      };
      return {
        crypto: c.map((r) => ({
          id: r.id,
          customer_id: r.customer_id,
          chain: r.chain,
          currency: r.currency,
          txid: r.txid,
          output_index: r.output_index,
          address: r.address,
          amount: toDecimalString(BigInt(r.amount_units), scaleOf(r.currency)),
          confirmations: r.confirmations,
          state: r.status,
          status: cryptoStatus(r.status),
          released_by: r.released_by,
          created_at: r.created_at.getTime(),
          customer: customerOf(r.customer_id),
        })),
        bank: b.map((r) => ({
          id: r.id,
          customer_id: r.customer_id,
          currency: r.currency,
          amount: toDecimalString(BigInt(r.amount_units), scaleOf(r.currency)),
          reference: r.reference,
          proof_id: r.proof_id,
          state: r.status,
          status: bankStatus(r.status),
          reject_reason: r.reject_reason,
          decided_by: r.decided_by,
          decided_at: r.decided_at?.getTime() ?? null,
          created_at: r.created_at.getTime(),
          customer: customerOf(r.customer_id),
        })),
      };
    },

    async proof(id: string) {
      const row = await db
        .selectFrom('deposits_proof')
        .select(['mime', 'bytes'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row) refuse('NOT_FOUND');
      return row;
    },

    /** Credits the customer: a money action, so it carries the staff member's reason (audited). */
    async confirmBank(staff: StaffContext, id: string, reason: string) {
      const why = reason.trim();
      if (why === '') refuse('FIELD_REQUIRED', { field: 'reason' });
      if (why.length > ASSET_LIMITS.rejectReasonMax) {
        refuse('FIELD_TOO_LONG', { field: 'reason', max: ASSET_LIMITS.rejectReasonMax });
      }
      return inTransaction(db, async (tx) => {
        const row = await tx
          .selectFrom('deposits_bank')
          .selectAll()
          .where('id', '=', id)
          .forUpdate()
          .executeTakeFirst();
        if (!row) refuse('NOT_FOUND');
        if (row.status !== 'pending') refuse('DEPOSIT_NOT_PENDING');
        const entry = await ledger.credit(tx, {
          book: 'real',
          customerId: row.customer_id,
          accountType: DEPOSIT_ACCOUNT_TYPE,
          currency: row.currency,
          amountUnits: BigInt(row.amount_units),
          from: 'deposits_clearing',
          reason: 'deposit.bank',
          reference: { type: 'deposit', id: row.id },
          idempotencyKey: `bank-deposit:${row.id}`,
          actorId: staff.staffId,
        });
        const now = clock.now();
        await tx
          .updateTable('deposits_bank')
          .set({ status: 'confirmed', entry_id: entry.id, decided_by: staff.staffId, decided_at: now })
          .where('id', '=', id)
          .execute();
        await audit.record(tx, {
          actorId: staff.staffId,
          action: 'deposit.confirm',
          targetType: 'bank_deposit',
          targetId: id,
          before: { status: row.status },
          after: {
            status: 'confirmed',
            entry_id: entry.id,
            amount: row.amount_units,
            currency: row.currency,
          },
          reason: why,
        });
        return { id, status: 2 as const, entry_id: entry.id };
      });
    },

    async rejectBank(staff: StaffContext, id: string, reason: string) {
      const why = reason.trim();
      if (why === '') refuse('FIELD_REQUIRED', { field: 'reason' });
      if (why.length > ASSET_LIMITS.rejectReasonMax) {
        refuse('FIELD_TOO_LONG', { field: 'reason', max: ASSET_LIMITS.rejectReasonMax });
      }
      return inTransaction(db, async (tx) => {
        const row = await tx
          .selectFrom('deposits_bank')
          .selectAll()
          .where('id', '=', id)
          .forUpdate()
          .executeTakeFirst();
        if (!row) refuse('NOT_FOUND');
        if (row.status !== 'pending') refuse('DEPOSIT_NOT_PENDING');
        await tx
          .updateTable('deposits_bank')
          .set({ status: 'rejected', reject_reason: why, decided_by: staff.staffId, decided_at: clock.now() })
          .where('id', '=', id)
          .execute();
        await audit.record(tx, {
          actorId: staff.staffId,
          action: 'deposit.reject',
          targetType: 'bank_deposit',
          targetId: id,
          before: { status: row.status },
          after: { status: 'rejected' },
          reason: why,
        });
        return { id, status: 0 as const };
      });
    },

    /** Staff release of a held (below-minimum) crypto deposit: credited as it is, audited. */
    async releaseHeld(staff: StaffContext, id: string, reason: string) {
      const why = reason.trim();
      if (why === '') refuse('FIELD_REQUIRED', { field: 'reason' });
      return inTransaction(db, async (tx) => {
        const row = await tx
          .selectFrom('deposits_crypto')
          .selectAll()
          .where('id', '=', id)
          .forUpdate()
          .executeTakeFirst();
        if (!row) refuse('NOT_FOUND');
        if (row.status !== 'held') refuse('DEPOSIT_NOT_PENDING');
        const entry = await creditCrypto(tx, row, staff.staffId, staff.staffId);
        await audit.record(tx, {
          actorId: staff.staffId,
          action: 'deposit.release_held',
          targetType: 'crypto_deposit',
          targetId: id,
          before: { status: 'held' },
          after: { status: 'credited', entry_id: entry.id },
          reason: why,
        });
        return { id, status: 2 as const, entry_id: entry.id };
      });
    },

    /** Operator data: open/close a channel, its minimum and confirmations. Audited. */
    async updateChannel(
      staff: StaffContext,
      input: { currency: string; chain: string; open?: string; min_amount?: string; confirmations?: string },
    ) {
      const currency = knownCurrency(input.currency);
      return inTransaction(db, async (tx) => {
        const row = await tx
          .selectFrom('deposits_channel')
          .selectAll()
          .where('currency', '=', currency)
          .where('chain', '=', input.chain)
          .forUpdate()
          .executeTakeFirst();
        if (!row) refuse('NOT_FOUND');
        const patch: { open?: boolean; min_units?: string; confirmations?: number } = {};
        if (input.open !== undefined) {
          if (input.open !== '0' && input.open !== '1') refuse('BAD_INPUT', { field: 'open' });
          patch.open = input.open === '1';
        }
        if (input.min_amount !== undefined) {
          patch.min_units = parseAmount('min_amount', input.min_amount, currency).toString();
        }
        if (input.confirmations !== undefined) {
          if (!/^\d{1,5}$/.test(input.confirmations) || Number(input.confirmations) > 10_000) {
            refuse('BAD_INPUT', { field: 'confirmations' });
          }
          patch.confirmations = Number(input.confirmations);
        }
        const updated = await tx
          .updateTable('deposits_channel')
          .set({ ...patch, updated_at: clock.now() })
          .where('currency', '=', currency)
          .where('chain', '=', input.chain)
          .returningAll()
          .executeTakeFirstOrThrow();
        await audit.record(tx, {
          actorId: staff.staffId,
          action: 'deposit_channel.update',
          targetType: 'deposit_channel',
          targetId: `${currency}:${input.chain}`,
          before: channelData(row),
          after: channelData(updated),
        });
        return channelData(updated);
      });
    },
  };
  return service;
}

export type Deposits = ReturnType<typeof createDeposits>;
