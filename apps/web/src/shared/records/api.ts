import type { RecordKind, RecordsPage } from '@bourse/protocol';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { API_BASE } from '../../config/app.ts';
import { apiGet } from '../../lib/api.ts';
import { currentLang } from '../../lib/i18n.ts';
import { getToken, useToken } from '../../lib/session.ts';

export type RecordFilter = {
  kind: RecordKind;
  type?: string;
  currency?: string;
  account_type?: string;
  status?: '0' | '1' | '2';
  start_time?: string;
  end_time?: string;
  page?: number;
  page_size?: number;
};

/** `GET web/getRecords`: one page of records of a kind (journal, deposits, withdrawals). */
export function useRecords(filter: RecordFilter) {
  const token = useToken();
  return useQuery({
    queryKey: ['web/getRecords', token, filter],
    queryFn: () => apiGet<RecordsPage>('web/getRecords', filter),
    enabled: token !== null,
    placeholderData: keepPreviousData,
  });
}

/**
 * `GET web/exportRecords`: the server answers text/csv with a header row in the customer's
 * language; the app fetches it (token in the query like every GET) and saves it as a file.
 */
export function downloadRecordsCsv(filter: Omit<RecordFilter, 'page' | 'page_size'>): Promise<number> {
  return downloadCsv('web/exportRecords', filter, `records-${filter.kind}.csv`);
}

/**
 * Any CSV export call (`web/exportRecords`, `web/exportSpotRecords`, `web/exportContractRecords`,
 * `web/exportOptionRecords`): fetches it with the session token and the customer's language, saves
 * it as `filename`, and answers the number of data rows. A refusal throws its localized message.
 */
export async function downloadCsv(
  call: string,
  params: Readonly<Record<string, string | number | undefined>>,
  filename: string,
): Promise<number> {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') search.set(k, String(v));
  search.set('token', getToken() ?? '');
  search.set('lang', currentLang());
  const response = await fetch(`${API_BASE}/${call}?${search.toString()}`, {
    credentials: 'same-origin',
  });
  // The bytes as sent: response.text() would drop the UTF-8 BOM that spreadsheets need for Chinese.
  const bytes = await response.arrayBuffer();
  const text = new TextDecoder().decode(bytes);
  if (!response.ok || !(response.headers.get('content-type') ?? '').startsWith('text/csv')) {
    let message = `HTTP ${response.status}`;
    try {
      message = (JSON.parse(text) as { msg?: string }).msg ?? message;
    } catch {}
    throw new Error(message);
  }
  const blob = new Blob([bytes], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return Math.max(0, text.trim().split('\r\n').length - 1);
}
