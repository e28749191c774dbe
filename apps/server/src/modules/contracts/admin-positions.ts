import type { AdminExposureData, AdminPositionData, AdminPositionsQuery, Paged } from '@bourse/protocol';
import { DERIVATIVES_LIMITS } from '@bourse/protocol';
import { executable, pnlUsdt } from '@bourse/risk';
import type { Db } from '../../db/database.ts';
import { pageOf } from '../../http/paging.ts';
import type { Market } from '../market/index.ts';
import { type Position, positionOf } from './core.ts';
import { type InstrumentInfo, lotsText, mathOf, priceText, storedPrice, usdtText } from './math.ts';
import { openPositionsOfBook, positionsPage } from './repo.ts';
import type { ContractsService } from './service.ts';

/** What the back office sees of positions: exposure per instrument and book, and the positions list (read only). */

type Exposure = AdminExposureData & { l: bigint; sh: bigint; mg: bigint; pnl: bigint };

export async function exposure(
  deps: { db: Db; market: Market; service: ContractsService },
  book: 'real' | 'demo',
): Promise<AdminExposureData[]> {
  const { service } = deps;
  const rows = await openPositionsOfBook(deps.db, book);
  const spreads = new Map((await service.allSettings()).map(({ s }) => [s.symbol, s.spreadUnits]));
  const bySymbol = new Map<string, Exposure>();
  for (const r of rows) {
    const i = service.instrument(r.symbol);
    const p = positionOf(r, i);
    const t = deps.market.ticker(r.symbol);
    let e = bySymbol.get(r.symbol);
    if (!e) {
      e = emptyExposure(r.symbol, book, t.mark);
      bySymbol.set(r.symbol, e);
    }
    addPosition(service, e, { i, p, t, spreadUnits: spreads.get(r.symbol) ?? 0n });
  }
  return [...bySymbol.values()].map(({ l, sh, mg, pnl, ...e }) => ({
    ...e,
    long_lots: lotsText(l),
    short_lots: lotsText(sh),
    net_lots: lotsText(l - sh),
    margin: usdtText(mg),
    unrealized_pnl: usdtText(pnl),
    mark_price: e.mark_price
      ? priceText(service.instrument(e.symbol), storedPrice(service.instrument(e.symbol), e.mark_price))
      : null,
  }));
}

function emptyExposure(
  symbol: string,
  book: 'real' | 'demo',
  mark: AdminExposureData['mark_price'],
): Exposure {
  return {
    symbol,
    book,
    positions: 0,
    long_lots: '0',
    short_lots: '0',
    net_lots: '0',
    margin: '0',
    unrealized_pnl: '0',
    mark_price: mark,
    l: 0n,
    sh: 0n,
    mg: 0n,
    pnl: 0n,
  };
}

/** Adds one open position: its lots by side, margin, and P&L at the executable close price now. */
function addPosition(
  service: ContractsService,
  e: Exposure,
  input: { i: InstrumentInfo; p: Position; t: { bid: string; ask: string }; spreadUnits: bigint },
): void {
  const { i, p, t } = input;
  e.positions += 1;
  if (p.side === 'buy') e.l += p.lotsUnits;
  else e.sh += p.lotsUnits;
  e.mg += p.marginUnits;
  const exec = executable(storedPrice(i, t.bid), storedPrice(i, t.ask), input.spreadUnits);
  const m = mathOf(i, service.conversionNow(i).rate);
  e.pnl += pnlUsdt(m, p.side, p.openUnits, p.side === 'buy' ? exec.closeLong : exec.closeShort, p.lotsUnits);
}

export async function positions(
  deps: {
    db: Db;
    service: ContractsService;
    customerLabels(ids: readonly string[]): Promise<Map<string, string>>;
  },
  q: AdminPositionsQuery,
): Promise<Paged<AdminPositionData>> {
  const { page, pageSize } = pageOf(q, DERIVATIVES_LIMITS);
  const { total, rows } = await positionsPage(
    deps.db,
    { status: q.status ?? 'open', book: q.book, symbol: q.symbol, customerId: q.customer_id },
    { page, pageSize },
  );
  const labels = await deps.customerLabels([...new Set(rows.map((r) => r.customer_id))]);
  await deps.service.allSettings();
  return {
    total,
    page,
    page_size: pageSize,
    items: rows.map((r) => ({
      ...deps.service.positionData(r),
      customer_id: r.customer_id,
      customer_label: labels.get(r.customer_id) ?? r.customer_id,
    })),
  };
}
