import { catalogs, lookup } from '@bourse/i18n';
import type { Lang, OptionExportQuery, OptionOrderData } from '@bourse/protocol';
import type { AuthContext } from '../../http/context.ts';
import { csvCell, csvDocument, csvNumber } from '../../lib/csv.ts';
import type { Options } from './service.ts';

type Labels = (key: string) => string;

/** `{{name}}` placeholders filled in, as the web's i18n does. */
function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? ''));
}

/** The screen's duration: "30 s", "5 min", "1 h", "1 d" (options/logic.ts durationParts). */
function durationLabel(l: Labels, seconds: number): string {
  const [unit, count] =
    seconds >= 86_400 && seconds % 86_400 === 0
      ? ['d', seconds / 86_400]
      : seconds >= 3600 && seconds % 3600 === 0
        ? ['h', seconds / 3600]
        : seconds >= 60 && seconds % 60 === 0
          ? ['min', seconds / 60]
          : ['s', seconds];
  return fill(l(`duration.${unit}`), { count });
}

/** The screen's price source: "Simulated feed", "Binance via market feed", … */
function sourceLabel(l: Labels, source: string | null): string {
  if (!source) return '';
  if (source === 'sim' || source === 'replay' || source === 'reference') return l(`source.${source}`);
  if (source.startsWith('ccxt:')) {
    const name = source.slice(5);
    return fill(l('source.exchange'), { name: name.charAt(0).toUpperCase() + name.slice(1) });
  }
  return fill(l('source.other'), { name: source });
}

const time = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString());

const COLUMNS = [
  'id',
  'opened',
  'symbol',
  'direction',
  'stake',
  'currency',
  'duration',
  'rate',
  'openPrice',
  'openSource',
  'settlementPrice',
  'settlementSource',
  'result',
  'payout',
  'profit',
  'settled',
  'expires',
] as const;

/**
 * `GET web/exportOptionRecords`: the customer's options with getOptionOrders' filters, the screen's
 * columns with the order id first, labels in `lang`, amounts and rates as the API's decimal strings.
 */
export async function optionRecordsCsv(
  options: Options,
  auth: AuthContext,
  q: OptionExportQuery,
  lang: Lang,
): Promise<string> {
  const l: Labels = (key) => lookup(catalogs[lang].options, key) ?? key;
  const page = await options.orders(auth, q, true);
  const rows = page.items.map((o: OptionOrderData) => [
    csvCell(o.order_id),
    time(o.opened_at),
    csvCell(o.symbol),
    csvCell(l(o.direction === 'up' ? 'form.up' : 'form.down')),
    csvNumber(o.stake),
    csvCell(o.currency),
    csvCell(durationLabel(l, o.duration)),
    csvNumber(o.payout_rate),
    csvNumber(o.open_price),
    csvCell(sourceLabel(l, o.open_price_source)),
    csvNumber(o.settlement_price),
    csvCell(sourceLabel(l, o.settlement_price_source)),
    csvCell(l(`status.${o.status}`)),
    csvNumber(o.payout),
    csvNumber(o.profit),
    time(o.settled_at),
    time(o.expires_at),
  ]);
  return csvDocument(
    COLUMNS.map((c) => l(`history.${c}`)),
    rows,
  );
}
