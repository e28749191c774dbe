import type { LaunchpadProjectState, LaunchpadSubscriptionState, Paged } from '@bourse/protocol';
import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Db, Tx } from '../../db/database.ts';
import type { LaunchpadTables } from './tables.ts';

/** The SQL on the launchpad's own tables. */

type Q = Db | Tx;
export type ProjectRow = Selectable<LaunchpadTables['launchpad_project']>;
export type SubscriptionRow = Selectable<LaunchpadTables['launchpad_subscription']>;
export type RunRow = Selectable<LaunchpadTables['launchpad_run']>;
export type RunKind = RunRow['kind'];

export async function insertProject(q: Q, row: ProjectRow): Promise<void> {
  await q
    .insertInto('launchpad_project')
    .values({
      ...row,
      names: JSON.stringify(row.names),
      descriptions: JSON.stringify(row.descriptions),
      risk_warnings: JSON.stringify(row.risk_warnings),
      jurisdictions: JSON.stringify(row.jurisdictions),
      allocation: row.allocation === null ? null : JSON.stringify(row.allocation),
    } as never)
    .execute();
}

export async function findProject(q: Q, id: string, options: { lock?: boolean } = {}) {
  let query = q.selectFrom('launchpad_project').selectAll().where('id', '=', id);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function projects(q: Q, states?: readonly LaunchpadProjectState[]): Promise<ProjectRow[]> {
  let query = q.selectFrom('launchpad_project').selectAll();
  if (states) query = query.where('state', 'in', states);
  return query.orderBy('opens_at', 'desc').orderBy('id', 'desc').execute();
}

/** Projects whose state the job may move on: windows to open or close, reviews, allocations, refunds, releases. */
export async function projectsDue(q: Q, now: Date): Promise<ProjectRow[]> {
  return q
    .selectFrom('launchpad_project')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([eb('state', '=', 'announced'), eb('opens_at', '<=', now)]),
        eb.and([eb('state', '=', 'open'), eb('closes_at', '<=', now)]),
        eb('state', 'in', ['closed', 'allocating', 'failed']),
        // Distributed and released: only while coins are still locked or the release run is unfinished
        // (a finished project is never read again by the job).
        eb.and([
          eb('state', '=', 'distributed'),
          eb('release_at', '<=', now),
          eb.or([
            eb.exists(
              eb
                .selectFrom('launchpad_subscription as s')
                .select('s.id')
                .whereRef('s.project_id', '=', 'launchpad_project.id')
                .where('s.token_state', '=', 'locked'),
            ),
            eb.exists(
              eb
                .selectFrom('launchpad_run as r')
                .select('r.id')
                .whereRef('r.project_id', '=', 'launchpad_project.id')
                .where('r.kind', '=', 'release')
                .where('r.finished_at', 'is', null),
            ),
          ]),
        ]),
      ]),
    )
    .orderBy('closes_at')
    .execute();
}

export async function updateProject(q: Q, id: string, patch: Partial<Omit<ProjectRow, 'id'>>): Promise<void> {
  const values: Record<string, unknown> = { ...patch };
  if (patch.allocation !== undefined)
    values.allocation = patch.allocation === null ? null : JSON.stringify(patch.allocation);
  await q
    .updateTable('launchpad_project')
    .set(values as never)
    .where('id', '=', id)
    .execute();
}

export async function insertSubscription(q: Q, row: SubscriptionRow): Promise<void> {
  await q.insertInto('launchpad_subscription').values(row).execute();
}

export async function findSubscription(q: Q, id: string, options: { lock?: boolean } = {}) {
  let query = q.selectFrom('launchpad_subscription').selectAll().where('id', '=', id);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function subscriptionOf(q: Q, projectId: string, customerId: string) {
  return q
    .selectFrom('launchpad_subscription')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('customer_id', '=', customerId)
    .executeTakeFirst();
}

export async function updateSubscription(
  q: Q,
  id: string,
  patch: Partial<Omit<SubscriptionRow, 'id'>>,
): Promise<void> {
  await q.updateTable('launchpad_subscription').set(patch).where('id', '=', id).execute();
}

/** A batch of a project's subscriptions in one of `states`, in arrival order. */
export async function subscriptionsIn(
  q: Q,
  projectId: string,
  states: readonly LaunchpadSubscriptionState[],
  limit: number,
  extra: { tokenState?: 'locked' } = {},
): Promise<SubscriptionRow[]> {
  let query = q
    .selectFrom('launchpad_subscription')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('state', 'in', states);
  if (extra.tokenState) query = query.where('token_state', '=', extra.tokenState);
  return query.orderBy('seq').limit(limit).execute();
}

/** Every passed subscription of a project (the allocation's input), in arrival order. */
export async function passed(q: Q, projectId: string): Promise<SubscriptionRow[]> {
  return q
    .selectFrom('launchpad_subscription')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('state', 'in', ['passed', 'allocated'])
    .orderBy('seq')
    .execute();
}

export async function counts(q: Q, projectIds: readonly string[]) {
  if (projectIds.length === 0) return [];
  return q
    .selectFrom('launchpad_subscription')
    .select(['project_id', 'state', (eb) => eb.fn.countAll<string>().as('n')])
    .where('project_id', 'in', projectIds)
    .groupBy(['project_id', 'state'])
    .execute();
}

/** Per project: USDT paid into escrow and fees taken, over its allocated subscriptions. */
export async function moneyTotals(q: Q, projectIds: readonly string[]) {
  if (projectIds.length === 0) return [];
  return q
    .selectFrom('launchpad_subscription')
    .select([
      'project_id',
      sql<string>`coalesce(sum(paid_units), 0)`.as('paid'),
      sql<string>`coalesce(sum(fee_paid_units), 0)`.as('fees'),
    ])
    .where('project_id', 'in', projectIds)
    .groupBy('project_id')
    .execute();
}

export async function subscriptionsPage<T>(
  q: Q,
  filter: { customerId?: string; projectId?: string; state?: LaunchpadSubscriptionState },
  page: { page: number; pageSize: number },
  out: (rows: SubscriptionRow[]) => Promise<T[]>,
): Promise<Paged<T>> {
  let base = q.selectFrom('launchpad_subscription');
  if (filter.customerId) base = base.where('customer_id', '=', filter.customerId);
  if (filter.projectId) base = base.where('project_id', '=', filter.projectId);
  if (filter.state) base = base.where('state', '=', filter.state);
  const [{ n }, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
    base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .execute(),
  ]);
  return { total: Number(n), page: page.page, page_size: page.pageSize, items: await out(rows) };
}

/** Adds one subscription's figures to the project's run of `kind` (one row per project and kind). */
export async function addToRun(
  q: Q,
  input: { id: string; projectId: string; kind: RunKind; now: Date; lots: bigint; amount: bigint },
): Promise<void> {
  await sql`
    insert into launchpad_run (id, project_id, kind, subscriptions, lots, amount_units, started_at)
    values (${input.id}, ${input.projectId}, ${input.kind}, 1, ${input.lots.toString()},
            ${input.amount.toString()}, ${input.now})
    on conflict (project_id, kind) do update set
      subscriptions = launchpad_run.subscriptions + 1,
      lots = launchpad_run.lots + excluded.lots,
      amount_units = launchpad_run.amount_units + excluded.amount_units`.execute(q);
}

/** Opens the run row of `kind` if none (a run with nothing to do still records its start and end). */
export async function ensureRun(q: Q, input: { id: string; projectId: string; kind: RunKind; now: Date }) {
  await sql`
    insert into launchpad_run (id, project_id, kind, started_at)
    values (${input.id}, ${input.projectId}, ${input.kind}, ${input.now})
    on conflict (project_id, kind) do nothing`.execute(q);
}

export async function finishRun(q: Q, projectId: string, kind: RunKind, now: Date): Promise<void> {
  await q
    .updateTable('launchpad_run')
    .set({ finished_at: now })
    .where('project_id', '=', projectId)
    .where('kind', '=', kind)
    .where('finished_at', 'is', null)
    .execute();
}

export async function runsOf(q: Q, projectId: string): Promise<RunRow[]> {
  return q
    .selectFrom('launchpad_run')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('started_at', 'desc')
    .execute();
}

export async function coins(q: Q): Promise<Array<{ coin: string; coin_scale: number }>> {
  return q.selectFrom('launchpad_project').select(['coin', 'coin_scale']).execute();
}
