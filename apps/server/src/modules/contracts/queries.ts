import type {
  ContractCloseData,
  ContractFundingData,
  ContractInstrumentData,
  ContractOrderData,
  ContractPositionData,
  Paged,
} from '@bourse/protocol';
import { DERIVATIVES_LIMITS } from '@bourse/protocol';
import type { AuthContext } from '../../http/context.ts';
import { dateRangeOf, pageOf } from '../../http/paging.ts';
import { EXPORT_PAGING } from '../../lib/csv.ts';
import { allSettings, bookOf, type ContractsContext, ratingCapOf } from './context.ts';
import { closesPage, customerOpenPositions, fundingPage, historyPage, ordersPage } from './repo.ts';
import { closeData, fundingData, instrumentData, orderData, positionData } from './views.ts';

/**
 * The customer's reads: the contract list, open positions, and the record lists of /contractRecord
 * (orders, history, closes, funding). With `all` (exports) a list returns every row up to the
 * export cap instead of the query's page.
 */

type Page = { page?: string; page_size?: string };

function pagingOf(q: Page, all: boolean) {
  return all ? EXPORT_PAGING : pageOf(q, DERIVATIVES_LIMITS);
}

function mapItems<R, T>(page: Paged<R>, map: (row: R) => T): Paged<T> {
  return { ...page, items: page.items.map(map) };
}

/** The contract list; a real-book customer's `max_leverage` includes their risk rating's cap. */
export async function contracts(
  ctx: ContractsContext,
  symbol?: string,
  auth: AuthContext | null = null,
): Promise<ContractInstrumentData[]> {
  const list = await allSettings(ctx, symbol);
  const ratingCap = await ratingCapOf(ctx, auth);
  return Promise.all(list.map(({ i, s }) => instrumentData(ctx, i, s, ratingCap)));
}

export async function positions(
  ctx: ContractsContext,
  auth: AuthContext,
  symbol?: string,
): Promise<ContractPositionData[]> {
  await allSettings(ctx, symbol);
  const rows = await customerOpenPositions(ctx.db, {
    customerId: auth.customerId,
    book: bookOf(auth),
    symbol,
  });
  return rows.map((row) => positionData(ctx, row));
}

export async function orders(
  ctx: ContractsContext,
  auth: AuthContext,
  q: { symbol?: string; status?: 'pending' | 'filled' | 'cancelled' } & Page,
  all = false,
): Promise<Paged<ContractOrderData>> {
  const paging = pagingOf(q, all);
  const page = await ordersPage(
    ctx.db,
    { customerId: auth.customerId, book: bookOf(auth), status: q.status ?? 'pending', symbol: q.symbol },
    paging,
  );
  return mapItems(page, (row) => orderData(ctx, row));
}

export async function history(
  ctx: ContractsContext,
  auth: AuthContext,
  q: {
    symbol?: string;
    status?: 'closed' | 'liquidated' | 'delivered';
    start_time?: string;
    end_time?: string;
  } & Page,
  all = false,
): Promise<Paged<ContractPositionData>> {
  const paging = pagingOf(q, all);
  const range = dateRangeOf(q);
  const page = await historyPage(
    ctx.db,
    {
      customerId: auth.customerId,
      book: bookOf(auth),
      statuses: q.status ? [q.status] : ['closed', 'liquidated', 'delivered'],
      symbol: q.symbol,
      from: range.from ?? undefined,
      to: range.to ?? undefined,
    },
    paging,
  );
  return mapItems(page, (row) => positionData(ctx, row));
}

export async function closes(
  ctx: ContractsContext,
  auth: AuthContext,
  q: { position_id?: string; symbol?: string } & Page,
  all = false,
): Promise<Paged<ContractCloseData>> {
  const paging = pagingOf(q, all);
  const page = await closesPage(
    ctx.db,
    { customerId: auth.customerId, book: bookOf(auth), positionId: q.position_id, symbol: q.symbol },
    paging,
  );
  return mapItems(page, (row) => closeData(ctx, row));
}

export async function funding(
  ctx: ContractsContext,
  auth: AuthContext,
  q: { position_id?: string; symbol?: string } & Page,
  all = false,
): Promise<Paged<ContractFundingData>> {
  const paging = pagingOf(q, all);
  const page = await fundingPage(
    ctx.db,
    { customerId: auth.customerId, book: bookOf(auth), positionId: q.position_id, symbol: q.symbol },
    paging,
  );
  return mapItems(page, (row) => fundingData(ctx, row));
}
