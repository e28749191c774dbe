import { catalogs, lookup } from '@bourse/i18n';
import type { Lang, SpotExportQuery, SpotFillData, SpotOrderData } from '@bourse/protocol';
import type { AuthContext } from '../../http/context.ts';
import { refuse } from '../../http/refusal.ts';
import { csvCell, csvDocument, csvNumber, EXPORT_ROWS_MAX } from '../../lib/csv.ts';
import type { Spot } from './service.ts';

/** The filters each spot record list takes (the same as its list call). */
const LIST_FILTERS: Readonly<Record<SpotExportQuery['list'], readonly (keyof SpotExportQuery)[]>> = {
  open: ['symbol'],
  history: ['symbol', 'status', 'side', 'start_time', 'end_time'],
  fills: ['symbol', 'order_id', 'start_time', 'end_time'],
};
const FILTERS = ['symbol', 'status', 'side', 'order_id', 'start_time', 'end_time'] as const;

function label(lang: Lang, key: string): string {
  return lookup(catalogs[lang].trade, key) ?? key;
}

/**
 * `GET web/exportSpotRecords`: one spot record list (open orders, order history or fills) with the
 * screen's columns and the order/trade id first, labels in `lang`, amounts as the API's decimal strings.
 */
export async function spotRecordsCsv(spot: Spot, auth: AuthContext, q: SpotExportQuery, lang: Lang) {
  for (const f of FILTERS) {
    if (q[f] !== undefined && !LIST_FILTERS[q.list].includes(f)) refuse('BAD_INPUT', { field: f });
  }
  const window = { offset: 0, limit: EXPORT_ROWS_MAX };
  if (q.list === 'fills') {
    const page = await spot.myTrades(auth, q, window);
    return fillsCsv(page.items, lang);
  }
  const page = await spot.orders(auth, q, q.list === 'open', window);
  return ordersCsv(page.items, lang);
}

const time = (ms: number) => new Date(ms).toISOString();

function ordersCsv(items: readonly SpotOrderData[], lang: Lang): string {
  const columns = [
    'orderId',
    'time',
    'symbol',
    'side',
    'type',
    'price',
    'avgPrice',
    'qty',
    'filled',
    'fee',
    'feeCurrency',
  ];
  const header = [...columns.map((c) => label(lang, `orders.${c}`)), label(lang, 'orders.status')];
  const rows = items.map((o) => [
    csvCell(o.order_id),
    time(o.created_at),
    csvCell(o.symbol),
    csvCell(label(lang, `orders.sideName.${o.side}`)),
    csvCell(label(lang, `orders.typeName.${o.type}`)),
    o.price === null ? csvCell(label(lang, 'orders.marketPrice')) : csvNumber(o.price),
    csvNumber(o.avg_price),
    csvNumber(o.quantity),
    csvNumber(o.filled_quantity),
    csvNumber(o.fee),
    csvCell(o.fee_currency),
    csvCell(label(lang, `orders.statusName.${o.status}`)),
  ]);
  return csvDocument(header, rows);
}

function fillsCsv(items: readonly SpotFillData[], lang: Lang): string {
  const columns = [
    'tradeId',
    'orderId',
    'time',
    'symbol',
    'side',
    'role',
    'price',
    'qty',
    'amount',
    'fee',
    'feeCurrency',
  ];
  const rows = items.map((f) => [
    csvCell(f.trade_id),
    csvCell(f.order_id),
    time(f.time),
    csvCell(f.symbol),
    csvCell(label(lang, `orders.sideName.${f.side}`)),
    csvCell(label(lang, `orders.roleName.${f.role}`)),
    csvNumber(f.price),
    csvNumber(f.quantity),
    csvNumber(f.amount),
    csvNumber(f.fee),
    csvCell(f.fee_currency),
  ]);
  return csvDocument(
    columns.map((c) => label(lang, `orders.${c}`)),
    rows,
  );
}
