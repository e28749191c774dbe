import type {
  AdminLaunchpadActionBody,
  AdminLaunchpadMarketBody,
  AdminLaunchpadProjectBody,
  AdminLaunchpadRunsData,
  AdminLaunchpadSubscriptionData,
  AdminLaunchpadSubscriptionsQuery,
  GetSubscriptionRecordsQuery,
  Lang,
  LaunchpadProjectState,
  Paged,
  SubscribeBody,
  SubscriptionInfoData,
  SubscriptionListData,
  SubscriptionRecordsData,
} from '@bourse/protocol';
import { LAUNCHPAD_LIMITS } from '@bourse/protocol';
import type { AuthContext } from '../../http/context.ts';
import { pageOf } from '../../http/paging.ts';
import { refuse } from '../../http/refusal.ts';
import type { StaffContext } from '../../http/staff.ts';
import { type LaunchpadDeps, listCoin, subscriptionData, webProject } from './context.ts';
import { seedDemo } from './demo.ts';
import { runLaunchpadJob, scheduleLaunchpadJob, usdt } from './job.ts';
import { openMarket } from './listing.ts';
import { act, adminProjects, createProject } from './projects.ts';
import { customerProof, rebuildTrees } from './proofs.ts';
import type { ProjectRow, SubscriptionRow } from './repo.ts';
import * as repo from './repo.ts';
import { eligibility, quote, subscribe } from './subscribing.ts';

/**
 * Every project's coin becomes a currency of this process (`@bourse/money` registry). Called before
 * any module reads balances (wiring.ts `createCore`) and by tools reading the ledger on their own.
 */
export async function registerListedCoins(db: LaunchpadDeps['db']): Promise<void> {
  for (const c of await repo.coins(db)) listCoin(c);
}

const PAGING = { pageSizeDefault: 20, pageSizeMax: LAUNCHPAD_LIMITS.pageSizeMax };
/** The list's order: what can be subscribed first, then what is coming, then the rest. */
const LIST_ORDER: LaunchpadProjectState[] = [
  'open',
  'announced',
  'closed',
  'allocating',
  'distributed',
  'failed',
  'refunded',
];

/**
 * New-coin subscription (README.md). The parts are plain functions over `LaunchpadDeps`:
 * projects.ts (back office), subscribing.ts, job.ts (windows, review, allocation, refunds,
 * releases), proofs.ts, demo.ts.
 */
export function createLaunchpad(deps: LaunchpadDeps) {
  const { db } = deps;

  async function subscriptionsOut(rows: SubscriptionRow[], lang: Lang) {
    const projects = new Map<string, ProjectRow>();
    for (const id of new Set(rows.map((r) => r.project_id))) {
      const p = await repo.findProject(db, id);
      if (p) {
        listCoin(p);
        projects.set(id, p);
      }
    }
    return rows.map((r) => subscriptionData(r, projects.get(r.project_id) as ProjectRow, lang));
  }

  return {
    job: { runOnce: () => runLaunchpadJob(deps) },
    schedule: (intervalMs: number) => scheduleLaunchpadJob(deps, intervalMs),
    seedDemo: () => seedDemo(deps),

    // ---- web (customers)
    async list(lang: Lang, state?: LaunchpadProjectState): Promise<SubscriptionListData> {
      const [found, profileTier] = await Promise.all([
        repo.projects(db, state ? [state] : LIST_ORDER),
        deps.featureTier('launchpad'),
      ]);
      const rows = found.sort((a, b) => LIST_ORDER.indexOf(a.state) - LIST_ORDER.indexOf(b.state));
      return {
        items: rows.map((p) => {
          listCoin(p);
          return webProject(p, lang, profileTier);
        }),
      };
    },
    async info(auth: AuthContext | null, projectId: string, lang: Lang): Promise<SubscriptionInfoData> {
      const p = await repo.findProject(db, projectId);
      if (!p || p.state === 'draft') refuse('NOT_FOUND');
      listCoin(p);
      return {
        project: webProject(p, lang, await deps.featureTier('launchpad')),
        eligibility: auth ? await eligibility(deps, auth, p) : null,
      };
    },
    quote: (projectId: string, quantity: string) => quote(deps, projectId, quantity),
    async subscribe(auth: AuthContext, body: SubscribeBody, lang: Lang) {
      const row = await subscribe(deps, auth, body);
      return (await subscriptionsOut([row], lang))[0];
    },
    records(auth: AuthContext, q: GetSubscriptionRecordsQuery, lang: Lang): Promise<SubscriptionRecordsData> {
      return repo.subscriptionsPage(
        db,
        { customerId: auth.customerId, projectId: q.project_id, state: q.state },
        pageOf(q, PAGING),
        (rows) => subscriptionsOut(rows, lang),
      );
    },
    proof: (auth: AuthContext, projectId: string) => customerProof(deps, auth.customerId, projectId),

    // ---- back office
    adminProjects: () => adminProjects(deps),
    async createProject(staff: StaffContext, body: AdminLaunchpadProjectBody) {
      const row = await createProject(deps, staff, body);
      return (await adminProjects(deps)).items.find((p) => p.project_id === row.id);
    },
    async act(staff: StaffContext, projectId: string, body: AdminLaunchpadActionBody) {
      const id = await act(deps, staff, projectId, body);
      return (await adminProjects(deps)).items.find((p) => p.project_id === id);
    },
    async openMarket(staff: StaffContext, projectId: string, body: AdminLaunchpadMarketBody) {
      const id = await openMarket(deps, staff, projectId, body);
      return (await adminProjects(deps)).items.find((p) => p.project_id === id);
    },
    async adminSubscriptions(
      q: AdminLaunchpadSubscriptionsQuery,
    ): Promise<Paged<AdminLaunchpadSubscriptionData>> {
      let customerId: string | undefined;
      if (q.uid) {
        customerId = (await deps.customerByUid?.(q.uid)) ?? undefined;
        if (!customerId) return { total: 0, page: 1, page_size: pageOf(q, PAGING).pageSize, items: [] };
      }
      return repo.subscriptionsPage(
        db,
        { customerId, projectId: q.project_id, state: q.state },
        pageOf(q, PAGING),
        async (rows) => {
          const out = await subscriptionsOut(rows, 'en');
          const uids = (await deps.customerUids?.([...new Set(rows.map((r) => r.customer_id))])) ?? new Map();
          return out.map((s, i) => {
            const r = rows[i] as SubscriptionRow;
            return { ...s, uid: uids.get(r.customer_id) ?? '', customer_id: r.customer_id };
          });
        },
      );
    },
    async runs(projectId: string): Promise<AdminLaunchpadRunsData> {
      const p = await repo.findProject(db, projectId);
      if (!p) refuse('NOT_FOUND');
      listCoin(p);
      const rows = await repo.runsOf(db, projectId);
      return {
        items: rows.map((r) => ({
          run_id: r.id,
          project_id: r.project_id,
          kind: r.kind,
          subscriptions: r.subscriptions,
          lots: r.lots,
          amount: usdt(BigInt(r.amount_units)),
          started_at: r.started_at.getTime(),
          finished_at: r.finished_at?.getTime() ?? null,
        })),
      };
    },
    /** Rebuilds a project's trees from the stored leaves (tests and the ledger check compare roots). */
    async recomputeRoots(projectId: string) {
      const p = await repo.findProject(db, projectId);
      if (!p) refuse('NOT_FOUND');
      const { trees } = await rebuildTrees(db, p);
      return { commitment: trees.commitment.root, allocation: trees.allocation.root };
    },
  };
}

export type Launchpad = ReturnType<typeof createLaunchpad>;
