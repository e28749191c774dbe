import type {
  AdminFundModelData,
  AdminFundModelStateBody,
  AdminFundNavQuery,
  AdminFundOrderData,
  AdminFundOrdersQuery,
  AdminFundRebalanceData,
  AdminFundRebalancesQuery,
  BuyEtfBody,
  EtfInfoData,
  EtfInfoQuery,
  EtfOrdersQuery,
  EtfPreviewData,
  EtfPreviewQuery,
  FundEligibilityData,
  FundModelData,
  FundModelId,
  FundNavPoint,
  FundOrderData,
  Lang,
  Paged,
} from '@bourse/protocol';
import { FUNDS_LIMITS } from '@bourse/protocol';
import { inTransaction } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { pageOf } from '../../http/paging.ts';
import { Refusal, refuse } from '../../http/refusal.ts';
import type { StaffContext } from '../../http/staff.ts';
import { FUNDS_FEATURE, type FundsDeps } from './context.ts';
import { NAV_ONE, seedModels } from './models.ts';
import { hourOf, runNav } from './nav.ts';
import { buy, checkEligible, modelForPurchase, planOf, process, redeem } from './orders.ts';
import { assetText, usdt } from './plan.ts';
import { runRebalances } from './rebalance.ts';
import * as repo from './repo.ts';
import { legData, modelData, ordersData, positionsData, webModel } from './views.ts';

const PAGING = { pageSizeDefault: 20, pageSizeMax: FUNDS_LIMITS.pageSizeMax };
const DAY_MS = 86_400_000;
const RANGE_MS: Record<string, number | null> = {
  day: DAY_MS,
  week: 7 * DAY_MS,
  month: 30 * DAY_MS,
  all: null,
};

/**
 * ETF orders (README.md): two model portfolios as data, orders that buy the basket in the
 * customer's own account through the spot books, valuation on the recorded feed, redemption at
 * market, rebalancing by drift, NAV history, and a back office that can pause a model — never set
 * a price, a NAV or a result.
 */
export function createFunds(deps: FundsDeps) {
  const { db, clock, log, audit } = deps;

  async function modelOrRefuse(id: FundModelId) {
    const m = await repo.model(db, id);
    if (!m) refuse('NOT_FOUND');
    return m;
  }

  async function history(id: FundModelId, range: string | undefined): Promise<FundNavPoint[]> {
    const span = RANGE_MS[range ?? 'month'] ?? null;
    const from = span === null ? null : new Date(clock.now().getTime() - span);
    const rows = await repo.navHistory(db, id, from, FUNDS_LIMITS.navPointsMax);
    return rows.map((r) => ({ at: r.at.getTime(), nav: usdt(BigInt(r.nav_units)) }));
  }

  async function eligibility(auth: AuthContext, m: repo.ModelRow): Promise<FundEligibilityData> {
    const b = await deps.ledger.balance(db, {
      book: auth.isDemo ? 'demo' : 'real',
      customerId: auth.customerId,
      accountType: 'spot',
      currency: 'USDT',
    });
    const available = usdt(b.availableUnits);
    try {
      if (m.state !== 'open') refuse('FUNDS_MODEL_PAUSED', { model: m.id });
      await checkEligible(deps, auth, m, BigInt(m.min_amount_units));
      return { eligible: true, refusal: null, available };
    } catch (error) {
      // Every rule that can refuse a purchase is a Refusal: shown before the form, not an error.
      if (!(error instanceof Refusal)) throw error;
      return {
        eligible: false,
        refusal: { code: error.reason, params: { ...error.params } as Record<string, string | number> },
        available,
      };
    }
  }

  /** The jobs: unfinished orders resumed, the NAV of every hour due, then the rebalances. */
  async function runJobs(): Promise<{ resumed: number; nav: number; rebalanced: number }> {
    const pending = await repo.pendingOrderIds(db);
    for (const id of pending) await process(deps, id);
    const nav = await runNav(deps);
    const rebalanced = await runRebalances(deps);
    return { resumed: pending.length, nav, rebalanced };
  }

  return {
    async start(): Promise<{ seeded: number }> {
      const seeded = await seedModels(deps, hourOf);
      log.info({ seeded }, 'funds models ready');
      return { seeded };
    },
    runJobs,
    async list(lang: Lang): Promise<{ items: FundModelData[] }> {
      const [rows, profileTier] = await Promise.all([repo.models(db), deps.featureTier(FUNDS_FEATURE)]);
      return { items: rows.map((m) => webModel(deps, m, lang, profileTier)) };
    },
    async info(auth: AuthContext | null, q: EtfInfoQuery, lang: Lang): Promise<EtfInfoData> {
      const m = await modelOrRefuse(q.model_id);
      return {
        model: webModel(deps, m, lang, await deps.featureTier(FUNDS_FEATURE)),
        nav_history: await history(m.id, q.range),
        eligibility: auth ? await eligibility(auth, m) : null,
      };
    },
    async preview(q: EtfPreviewQuery): Promise<EtfPreviewData> {
      const { model, amountUnits } = await modelForPurchase(deps, q.model_id, q.amount);
      const plan = planOf(deps, model, amountUnits);
      let spent = 0n;
      let fees = 0n;
      for (const l of plan.legs) {
        spent += l.valueUnits + l.feeUnits;
        fees += l.feeUnits;
      }
      return {
        model_id: model.id,
        amount: usdt(amountUnits),
        legs: plan.legs.map((l) => ({
          asset: l.asset,
          symbol: l.symbol,
          weight_bps: l.weight_bps,
          budget: usdt(l.budget),
          price: l.price,
          quantity: assetText(l.asset, l.quantityUnits),
          value: usdt(l.valueUnits),
          fee: usdt(l.feeUnits),
          fee_rate: deps.spot.market(l.symbol).takerFeeRate,
        })),
        cash: usdt(amountUnits - spent),
        fees: usdt(fees),
      };
    },
    async buy(auth: AuthContext, body: BuyEtfBody, lang: Lang): Promise<FundOrderData> {
      const id = await buy(deps, auth, body);
      return this.order(auth, id, lang);
    },
    async sell(auth: AuthContext, orderId: string, lang: Lang): Promise<FundOrderData> {
      await redeem(deps, auth, orderId);
      return this.order(auth, orderId, lang);
    },
    async order(auth: AuthContext, orderId: string, lang: Lang): Promise<FundOrderData> {
      const o = await repo.order(db, orderId, { customerId: auth.customerId });
      if (!o) refuse('NOT_FOUND');
      return (await ordersData(deps, [o], lang))[0] as FundOrderData;
    },
    async orders(auth: AuthContext, q: EtfOrdersQuery, lang: Lang): Promise<Paged<FundOrderData>> {
      return repo.ordersPage(
        db,
        { customerId: auth.customerId, modelId: q.model_id, state: q.state },
        pageOf(q, PAGING),
        (rows) => ordersData(deps, rows, lang),
      );
    },

    // ---- back office: read-only views and the one state switch (audited). No price, NAV or result control.
    async adminModels(lang: Lang): Promise<{ items: AdminFundModelData[] }> {
      const [rows, totals] = await Promise.all([repo.models(db), repo.custodyTotals(db)]);
      const items: AdminFundModelData[] = [];
      for (const m of rows) {
        const open = await repo.ordersPage(
          db,
          { modelId: m.id, state: 'in_custody' },
          { page: 1, pageSize: FUNDS_LIMITS.pageSizeMax },
          (r) => ordersData(deps, r, lang),
        );
        items.push({
          ...modelData(deps, m, lang),
          names: m.names,
          descriptions: m.descriptions,
          state_reason: m.state_reason,
          orders_in_custody: Number(totals.find((t) => t.model_id === m.id)?.n ?? 0),
          value_in_custody: sumText(open.items.map((o) => o.value)),
          positions: positionsData(m),
        });
      }
      return { items };
    },
    async setModelState(
      staff: StaffContext,
      body: AdminFundModelStateBody,
      lang: Lang,
    ): Promise<FundModelData> {
      const saved = await inTransaction(db, async (tx) => {
        const before = await repo.model(tx, body.model_id, { lock: true });
        if (!before) refuse('NOT_FOUND');
        const now = clock.now();
        await repo.setModelState(tx, before.id, {
          state: body.state,
          state_reason: body.reason,
          updated_at: now,
        });
        await audit.record(tx, {
          actorId: staff.staffId,
          action: `funds.model.${body.state === 'open' ? 'open' : 'pause'}`,
          targetType: 'funds_model',
          targetId: before.id,
          before: { state: before.state },
          after: { state: body.state },
          reason: body.reason,
        });
        return { ...before, state: body.state, state_reason: body.reason, updated_at: now };
      });
      return webModel(deps, saved, lang, await deps.featureTier(FUNDS_FEATURE));
    },
    async adminOrders(q: AdminFundOrdersQuery, lang: Lang): Promise<Paged<AdminFundOrderData>> {
      const labels = deps.customerLabels ?? (async () => new Map<string, string>());
      return repo.ordersPage(
        db,
        { customerId: q.customer_id, modelId: q.model_id, state: q.state, book: q.book },
        pageOf(q, PAGING),
        async (rows) => {
          const data = await ordersData(deps, rows, lang);
          const names = await labels([...new Set(rows.map((r) => r.customer_id))]);
          return data.map((d, i) => {
            const customerId = rows[i]?.customer_id as string;
            return { ...d, customer_id: customerId, customer_label: names.get(customerId) ?? customerId };
          });
        },
      );
    },
    async adminRebalances(q: AdminFundRebalancesQuery): Promise<Paged<AdminFundRebalanceData>> {
      return repo.rebalancesPage(
        db,
        { modelId: q.model_id, orderId: q.order_id },
        pageOf(q, PAGING),
        async (rows) => {
          const legs = await repo.legsOfRebalances(
            db,
            rows.map((r) => r.id),
          );
          return rows.map((r) => ({
            rebalance_id: r.id,
            order_id: r.order_id,
            model_id: r.model_id,
            customer_id: r.customer_id,
            state: r.state,
            drift_bps: r.drift_bps,
            before: r.before,
            after: r.after,
            trades: legs.filter((l) => l.rebalance_id === r.id).map(legData),
            started_at: r.started_at.getTime(),
            done_at: r.done_at?.getTime() ?? null,
          }));
        },
      );
    },
    async adminNav(q: AdminFundNavQuery): Promise<{ items: FundNavPoint[] }> {
      const m = await modelOrRefuse(q.model_id);
      return { items: await history(m.id, q.range) };
    },
  };
}

/** The sum of USDT decimal strings. */
function sumText(values: readonly string[]): string {
  let total = 0n;
  for (const v of values) {
    const [i = '0', f = ''] = v.split('.');
    total += BigInt(i) * NAV_ONE + BigInt(f.padEnd(8, '0').slice(0, 8) || '0');
  }
  return usdt(total);
}

export type Funds = ReturnType<typeof createFunds>;
