import { USDT_SCALE } from '@bourse/risk';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Ledger } from '../ledger/index.ts';
import type { Market } from '../market/index.ts';
import { conversionFrom, IDENTITY, type InstrumentInfo } from './math.ts';
import type { ContractsService } from './service.ts';
import { defaultSetting, seedSettings } from './settings.ts';

/** The demo book's insurance account starts with this (USDT), paid once from insurance_capital. */
export const DEMO_INSURANCE_SEED_USDT = 1_000_000n;

/**
 * At start: a setting (the class defaults) for every contract instrument of the catalogue that has
 * none, and the demo insurance seed (once: its idempotency key is fixed).
 */
export async function startContracts(deps: {
  db: Db;
  clock: Clock;
  ledger: Ledger;
  market: Market;
  service: ContractsService;
}): Promise<{ seeded: number }> {
  const { market, service } = deps;
  const page = market.instruments({ page_size: '1000' } as Parameters<Market['instruments']>[0]);
  const now = deps.clock.now();
  const rows = [];
  for (const item of page.items) {
    if (item.class === 'crypto_spot') continue;
    const full = market.instrument(item.symbol);
    const i: InstrumentInfo = full;
    const refUnits = full.refTicks * full.tickUnits;
    let conversion = IDENTITY;
    if (i.quote !== 'USD' && i.quote !== 'USDT') {
      const pair = service.pairOf(i.quote);
      if (!pair) continue; // no way to value it in USDT: not offered as a contract
      const p = market.instrument(pair.symbol);
      const ref = p.refTicks * p.tickUnits;
      conversion = conversionFrom(pair, ref, ref);
    }
    rows.push(defaultSetting(i, refUnits, conversion.rate, now));
  }
  const seeded = await seedSettings(deps.db, deps.clock, rows);
  await deps.ledger.post(deps.db, {
    reason: 'contract.insurance.seed',
    reference: { type: 'insurance', id: 'demo' },
    idempotencyKey: 'contracts:insurance:demo-seed',
    postings: [
      {
        account: { book: 'demo', platform: 'insurance_capital' },
        currency: 'USDT',
        amountUnits: -DEMO_INSURANCE_SEED_USDT * 10n ** BigInt(USDT_SCALE),
      },
      {
        account: { book: 'demo', platform: 'insurance' },
        currency: 'USDT',
        amountUnits: DEMO_INSURANCE_SEED_USDT * 10n ** BigInt(USDT_SCALE),
      },
    ],
  });
  return { seeded };
}
