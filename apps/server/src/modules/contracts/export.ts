import { catalogs, lookup } from '@bourse/i18n';
import type {
  ContractCloseData,
  ContractExportQuery,
  ContractFundingData,
  ContractOrderData,
  ContractPositionData,
  Lang,
} from '@bourse/protocol';
import type { AuthContext } from '../../http/context.ts';
import { refuse } from '../../http/refusal.ts';
import { csvCell, csvDocument, csvNumber } from '../../lib/csv.ts';
import type { ContractsService } from './service.ts';

type List = ContractExportQuery['list'];
type Filter = 'symbol' | 'status' | 'position_id' | 'start_time' | 'end_time';

/** The filters each contract record list takes (the same as its list call), and its statuses. */
const LIST_FILTERS: Readonly<Record<List, readonly Filter[]>> = {
  history: ['symbol', 'status', 'start_time', 'end_time'],
  orders: ['symbol', 'status'],
  closes: ['symbol', 'position_id'],
  funding: ['symbol', 'position_id'],
};
const STATUSES: Readonly<Record<List, readonly string[]>> = {
  history: ['closed', 'liquidated', 'delivered'],
  orders: ['pending', 'filled', 'cancelled'],
  closes: [],
  funding: [],
};
const FILTERS: readonly Filter[] = ['symbol', 'status', 'position_id', 'start_time', 'end_time'];

/**
 * `GET web/exportContractRecords`: one contract record list (history, orders, closes or funding)
 * with the screen's columns and the row's id first, labels in `lang`, amounts as the API's strings.
 */
export async function contractRecordsCsv(
  service: ContractsService,
  auth: AuthContext,
  q: ContractExportQuery,
  lang: Lang,
): Promise<string> {
  for (const f of FILTERS) {
    if (q[f] !== undefined && !LIST_FILTERS[q.list].includes(f)) refuse('BAD_INPUT', { field: f });
  }
  if (q.status !== undefined && !STATUSES[q.list].includes(q.status))
    refuse('BAD_INPUT', { field: 'status' });
  const l = labels(lang);
  switch (q.list) {
    case 'history': {
      const status = q.status as 'closed' | 'liquidated' | 'delivered' | undefined;
      const page = await service.history(auth, { ...q, status }, true);
      return historyCsv(page.items, l);
    }
    case 'orders': {
      const status = q.status as 'pending' | 'filled' | 'cancelled' | undefined;
      const page = await service.orders(auth, { symbol: q.symbol, status }, true);
      return ordersCsv(page.items, l);
    }
    case 'closes':
      return closesCsv((await service.closes(auth, q, true)).items, l);
    case 'funding':
      return fundingCsv((await service.funding(auth, q, true)).items, l);
  }
}

type Labels = (key: string, fallback?: string) => string;

function labels(lang: Lang): Labels {
  return (key, fallback) => lookup(catalogs[lang].contract, key) ?? fallback ?? key;
}

const time = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString());

/** The screen's price source: "Simulated feed", "Exchange feed (binance)", … */
function sourceLabel(l: Labels, source: string | null): string {
  if (!source) return '';
  const [kind, detail] = source.split(':', 2);
  if (kind === 'sim' || kind === 'replay' || kind === 'reference') return l(`source.${kind}`);
  if (kind === 'ccxt') return l('source.exchange').replace('{{exchange}}', detail ?? '');
  return l('source.feed');
}

function header(l: Labels, columns: readonly string[]): string[] {
  return columns.map((c) => l(`col.${c}`));
}

function ordersCsv(items: readonly ContractOrderData[], l: Labels): string {
  const columns = ['id', 'time', 'symbol', 'side', 'leverage', 'type', 'price', 'lots'];
  const rest = ['takeProfit', 'stopLoss', 'frozen', 'status', 'reason'];
  const rows = items.map((o) => [
    csvCell(o.order_id),
    time(o.created_at),
    csvCell(o.symbol),
    csvCell(l(`side.${o.side}`)),
    String(o.leverage),
    csvCell(l(`orderType.${o.type}`)),
    csvNumber(o.price),
    csvNumber(o.lots),
    csvNumber(o.tp_price),
    csvNumber(o.sl_price),
    csvNumber(o.frozen),
    csvCell(l(`orderStatus.${o.status}`)),
    csvCell(o.cancel_reason ? l(`cancelReason.${o.cancel_reason}`) : ''),
  ]);
  return csvDocument(header(l, [...columns, ...rest]), rows);
}

function historyCsv(items: readonly ContractPositionData[], l: Labels): string {
  const columns = ['id', 'closedAt', 'symbol', 'side', 'leverage', 'lots', 'openPrice', 'closePrice'];
  const rest = ['priceSource', 'fee', 'funding', 'realized', 'status', 'reason'];
  const rows = items.map((p) => [
    csvCell(p.position_id),
    time(p.closed_at),
    csvCell(p.symbol),
    csvCell(l(`side.${p.side}`)),
    String(p.leverage),
    csvNumber(p.opened_lots),
    csvNumber(p.open_price),
    csvNumber(p.close_price),
    csvCell(sourceLabel(l, p.close_price_source)),
    csvNumber(p.fee),
    csvNumber(p.funding),
    csvNumber(p.realized_pnl),
    csvCell(l(`positionStatus.${p.status}`)),
    csvCell(p.close_reason ? l(`closeReason.${p.close_reason}`) : ''),
  ]);
  return csvDocument(header(l, [...columns, ...rest]), rows);
}

function closesCsv(items: readonly ContractCloseData[], l: Labels): string {
  const columns = ['id', 'positionId', 'time', 'symbol', 'side', 'lots', 'openPrice', 'closePrice'];
  const rest = ['priceSource', 'pnlClose', 'fee', 'released', 'insurance', 'reason'];
  const rows = items.map((c) => [
    csvCell(c.close_id),
    csvCell(c.position_id),
    time(c.closed_at),
    csvCell(c.symbol),
    csvCell(l(`side.${c.side}`)),
    csvNumber(c.lots),
    csvNumber(c.open_price),
    csvNumber(c.close_price),
    csvCell(sourceLabel(l, c.price_source)),
    csvNumber(c.pnl),
    csvNumber(c.fee),
    csvNumber(c.released),
    csvNumber(c.insurance_covered),
    csvCell(l(`closeReason.${c.reason}`)),
  ]);
  return csvDocument(header(l, [...columns, ...rest]), rows);
}

function fundingCsv(items: readonly ContractFundingData[], l: Labels): string {
  const columns = ['id', 'positionId', 'time', 'symbol', 'side', 'rate', 'markPrice', 'amount'];
  const rows = items.map((f) => [
    csvCell(f.funding_id),
    csvCell(f.position_id),
    time(f.funding_at),
    csvCell(f.symbol),
    csvCell(l(`side.${f.side}`)),
    csvNumber(f.rate),
    csvNumber(f.mark_price),
    csvNumber(f.amount),
  ]);
  return csvDocument(header(l, columns), rows);
}
