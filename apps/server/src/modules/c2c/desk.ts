import { parseUnitsOrThrow } from '@bourse/money';
import { C2C_PRICE_SCALE } from '@bourse/risk';
import { inTransaction } from '../../db/database.ts';
import { newId } from '../../lib/ids.ts';
import { type C2cDeps, CONFIRM_WINDOW_MINUTES, JOB_BATCH, minutes } from './context.ts';
import { notifyOrder, publishOrder } from './notices.ts';
import type { OrderRow } from './repo.ts';
import * as repo from './repo.ts';
import { applyEvent } from './transition.ts';

/**
 * The operator's demo desk: the counterparty of demo accounts on the demo book (play money), so a
 * demo customer can walk through every step of a C2C order. Nobody sends real money to it, so on
 * demo-book orders the desk acts by itself at the job's next run, through the same state machine
 * and the same escrow entries as a real merchant:
 * - a demo customer buying has marked the order paid → the desk confirms receipt (escrow released);
 * - a demo customer selling has its coins in escrow → the desk marks its (demo) payment as sent,
 *   and the customer confirms receipt.
 * Never on the real book: a real merchant, the operator's desk included, acts by hand.
 */
export const DEMO_DESK = {
  email: 'c2c-demo-desk@bourse.local',
  name: 'Bourse demo desk',
  bank: 'Demo bank (play money)',
  reason: 'demo_desk',
} as const;

async function act(deps: C2cDeps, id: string): Promise<OrderRow | null> {
  return inTransaction(deps.db, async (tx) => {
    const o = await repo.findOrder(tx, id, { lock: true });
    if (!o || o.book !== 'demo') return null;
    const m = await repo.findMerchant(tx, o.merchant_id);
    if (!m?.is_operator) return null;
    const desk = { kind: 'merchant' as const, id: o.merchant_customer_id };
    if (o.state === 'paid' && o.seller_id === o.merchant_customer_id)
      return applyEvent(deps, tx, o, { event: 'confirm', actor: desk, reason: DEMO_DESK.reason });
    if (o.state === 'matched' && o.buyer_id === o.merchant_customer_id) {
      const now = deps.clock.now();
      return applyEvent(deps, tx, o, {
        event: 'mark_paid',
        actor: desk,
        reason: DEMO_DESK.reason,
        patch: {
          payer_name: m.name,
          payer_bank: DEMO_DESK.bank,
          paid_at: now,
          confirm_by: new Date(now.getTime() + minutes(CONFIRM_WINDOW_MINUTES)),
        },
      });
    }
    return null;
  });
}

/** One pass of the demo desk over the demo-book orders waiting for it; answers how many it moved. */
export async function runDemoDesk(deps: C2cDeps): Promise<number> {
  let count = 0;
  for (const id of await repo.deskWaiting(deps.db, JOB_BATCH)) {
    const row = await act(deps, id);
    if (!row) continue;
    count += 1;
    await publishOrder(deps, row, row.state);
    if (row.state === 'completed') await notifyOrder(deps, row, 'completed');
  }
  return count;
}

/** The demo desk's offers (customer buys and sells USDT for CNY), on the demo book. */
const DEMO_OFFERS = [
  { side: 'buy', price: '7.25', methods: ['bank', 'alipay'] },
  { side: 'sell', price: '7.15', methods: ['bank', 'wechat'] },
] as const;
const USDT_UNITS = 100_000_000n;

/**
 * Demo content (idempotent): the demo desk as an approved operator merchant and its two offers, its
 * play-money USDT from the demo faucet. `deskCustomerId` is the desk's demo account (wiring.ts).
 */
export async function seedDemoDesk(deps: C2cDeps, deskCustomerId: string): Promise<void> {
  const now = deps.clock.now();
  await inTransaction(deps.db, async (tx) => {
    let merchant = await repo.merchantOfCustomer(tx, deskCustomerId);
    if (!merchant) {
      merchant = {
        id: newId('cmr', now.getTime()),
        customer_id: deskCustomerId,
        name: DEMO_DESK.name,
        state: 'approved',
        is_operator: true,
        created_at: now,
        created_by: 'system',
        decided_by: 'system',
        decided_at: now,
        reason: 'demo content',
      };
      await repo.insertMerchant(tx, merchant);
    }
    // Where demo buyers "pay": the desk's play-money collection accounts, one per method.
    const accounts = await repo.accountsOf(tx, deskCustomerId);
    for (const method of ['bank', 'alipay', 'wechat'] as const) {
      if (accounts.some((a) => a.method === method)) continue;
      await repo.insertAccount(tx, {
        id: newId('cac', now.getTime()),
        customer_id: deskCustomerId,
        method,
        name: DEMO_DESK.name,
        bank_name: method === 'bank' ? DEMO_DESK.bank : null,
        account_no: method === 'bank' ? 'DEMO000000000001' : null,
        iban: null,
        swift: null,
        bank_address: null,
        wallet_id: method === 'bank' ? null : `demo-desk-${method}`,
        created_at: now,
        deleted_at: null,
      });
    }
    const existing = await repo.offers(tx, { activeOnly: false, book: 'demo', limit: 10, offset: 0 });
    for (const o of DEMO_OFFERS) {
      if (existing.some((e) => e.merchant_id === merchant.id && e.side === o.side)) continue;
      await repo.insertOffer(tx, {
        id: newId('cof', now.getTime()),
        merchant_id: merchant.id,
        side: o.side,
        coin: 'USDT',
        fiat: 'CNY',
        price_kind: 'fixed',
        price_units: parseUnitsOrThrow(o.price, { scale: C2C_PRICE_SCALE }).toString(),
        spread_bps: null,
        feed_symbol: null,
        min_units: (10n * USDT_UNITS).toString(),
        max_units: (5_000n * USDT_UNITS).toString(),
        total_units: (1_000_000n * USDT_UNITS).toString(),
        sold_units: '0',
        methods: o.methods.map((method) => ({ method, window_minutes: 180, max_units: null })),
        terms:
          'Demo desk: play money on the demo book. It confirms your demo payment by itself within a minute.',
        state: 'active',
        book: 'demo',
        created_at: now,
        updated_at: now,
      });
    }
    await deps.ledger.credit(tx, {
      book: 'demo',
      customerId: deskCustomerId,
      accountType: 'spot',
      currency: 'USDT',
      amountUnits: 1_000_000n * USDT_UNITS,
      from: 'demo_faucet',
      reason: 'c2c.demo_desk',
      reference: { type: 'c2c_merchant', id: merchant.id },
      idempotencyKey: `c2c:demo-desk:${deskCustomerId}`,
    });
  });
}
