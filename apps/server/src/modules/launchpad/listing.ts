import { parseDecimal, toDecimalString } from '@bourse/money';
import type { AdminLaunchpadMarketBody } from '@bourse/protocol';
import { inTransaction } from '../../db/database.ts';
import { refuse } from '../../http/refusal.ts';
import type { StaffContext } from '../../http/staff.ts';
import { type LaunchpadDeps, listCoin } from './context.ts';
import * as repo from './repo.ts';
import { USDT } from './rules.ts';

/** The issue price rounded to the nearest tick (at least one tick): the catalogue needs a price on the grid. */
export function refPriceOnGrid(priceUnits: bigint, priceScale: number, tick: string): string {
  const t = parseDecimal(tick, { scale: 18, allowZero: false });
  if (!t.ok) refuse('INSTRUMENT_INVALID', { field: 'price_tick' });
  const price = priceUnits * 10n ** BigInt(18 - priceScale);
  const ticks = (price + t.units / 2n) / t.units;
  return toDecimalString((ticks > 0n ? ticks : 1n) * t.units, 18).replace(/\.?0+$/, '');
}

/**
 * Opens the coin's spot market `COIN/USDT` on or after the listing date, once the project is
 * distributed: the instrument joins the catalogue priced by its own book (no feed, no market maker,
 * no history: its first price is its first trade), then the market opens with staff's settings. A
 * retry after a failure part way finds what was done and finishes; a second opening is refused.
 * The project records the market and the audit log the action, in one transaction.
 */
export async function openMarket(
  deps: LaunchpadDeps,
  staff: StaffContext,
  projectId: string,
  b: AdminLaunchpadMarketBody,
): Promise<string> {
  const p = await repo.findProject(deps.db, projectId);
  if (!p) refuse('NOT_FOUND');
  listCoin(p);
  const check = (row: typeof p) => {
    if (row.market_symbol) refuse('LAUNCHPAD_MARKET_OPEN', { symbol: row.market_symbol });
    if (row.state !== 'distributed' || deps.clock.now() < row.listing_at)
      refuse('LAUNCHPAD_ACTION_REFUSED', { from: row.state, action: 'open_market' });
  };
  check(p);
  if (!deps.openSpotMarket) refuse('NOT_FOUND');
  const symbol = `${p.coin}/${USDT.code}`;
  const { reason: _reason, token: _token, lang: _lang, rtoken: _rtoken, ...settings } = b;
  await deps.openSpotMarket(staff, {
    ...settings,
    symbol,
    name: p.names.en ?? p.coin,
    base: p.coin,
    quote: USDT.code,
    ref_price: refPriceOnGrid(BigInt(p.price_units), USDT.scale, b.price_tick),
  });
  await inTransaction(deps.db, async (tx) => {
    const row = await repo.findProject(tx, projectId, { lock: true });
    if (!row) refuse('NOT_FOUND');
    check(row);
    await repo.updateProject(tx, p.id, { market_symbol: symbol, market_opened_at: deps.clock.now() });
    await deps.audit.record(tx, {
      actorId: staff.staffId,
      action: 'launchpad.project.open_market',
      targetType: 'launchpad_project',
      targetId: p.id,
      before: { market_symbol: null },
      after: { market_symbol: symbol, ...settings },
      reason: b.reason,
    });
  });
  return p.id;
}
