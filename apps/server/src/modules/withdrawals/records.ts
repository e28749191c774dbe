import { EXPORT_ROWS_MAX } from '../../lib/csv.ts';
import { view, type WithdrawalsDeps } from './context.ts';
import * as repo from './repo.ts';

/** The customer's withdrawal records: a page of them, and the rows of a CSV export. */

type Deps = Pick<WithdrawalsDeps, 'db' | 'book'>;

export async function list(
  deps: Deps,
  filter: repo.WithdrawalFilter,
  page: { page: number; pageSize: number },
) {
  const { rows, total } = await repo.listWithdrawals(deps.db, filter, {
    offset: (page.page - 1) * page.pageSize,
    limit: page.pageSize,
  });
  return { list: rows.map((row) => view(deps, row)), total, page: page.page, page_size: page.pageSize };
}

/** At most EXPORT_ROWS_MAX rows, newest first (csv.ts writes them). */
export async function exportRows(deps: Deps, filter: repo.WithdrawalFilter) {
  const { rows } = await repo.listWithdrawals(deps.db, filter, { offset: 0, limit: EXPORT_ROWS_MAX });
  return rows.map((row) => view(deps, row));
}
