import {
  type AdminAccrualRunData,
  type AdminEarnOrderData,
  type AdminEarnProductBody,
  type AdminEarnProductStateBody,
  type AdminEarnSettingsBody,
  type AdminFundingCreateBody,
  type AdminFundingRequestBody,
  type BuyProfitBody,
  EARN_LIMITS,
  type EarnEligibilityData,
  type EarnKind,
  type EarnOrderState,
  type Lang,
  type Paged,
  type ProfitInfoData,
  type ProfitListData,
  type ProfitOrderData,
  type ProfitOrdersData,
  type ProfitTotalData,
  type RedeemQuoteData,
  type SellProfitBody,
} from '@bourse/protocol';
import type { AuthContext } from '../../http/context.ts';
import { pageOf } from '../../http/paging.ts';
import { Refusal, refuse } from '../../http/refusal.ts';
import type { StaffContext } from '../../http/staff.ts';
import { bookOf } from '../assets/index.ts';
import { runEarnJob, scheduleEarnJob } from './accrual.ts';
import { buy, checkAmount, checkCustomer } from './buying.ts';
import { type EarnDeps, localized, MAIN_ACCOUNT_TYPE, orderData } from './context.ts';
import { seedDemo } from './demo.ts';
import {
  createFunding,
  decideFunding,
  fundingAccounts,
  fundingRequestsPage,
  requestFunding,
  settings,
  updateSettings,
} from './funding.ts';
import {
  adminProducts,
  changeState,
  createProduct,
  cutoffSetting,
  exampleOf,
  productMoney,
  productsWithMoney,
  webProduct,
} from './products.ts';
import { quote, sell } from './redemption.ts';
import type { OrderRow } from './repo.ts';
import * as repo from './repo.ts';
import { amountText } from './rules.ts';
import { vipLevelOf } from './vip.ts';

const PAGING = { pageSizeDefault: 20, pageSizeMax: EARN_LIMITS.pageSizeMax };

/**
 * Earn: fixed-term custody and VIP products on one engine (README.md). The parts are plain
 * functions over `EarnDeps`: products.ts (the product as data, the back office's create and state),
 * buying.ts, accrual.ts (the daily job and maturity), redemption.ts (binding quotes, delayed
 * release), funding.ts (funding accounts, four-eyes funding, settings), vip.ts, demo.ts.
 */
export function createEarn(deps: EarnDeps) {
  const { db, ledger } = deps;

  async function names(productIds: readonly string[]) {
    const rows = await Promise.all([...new Set(productIds)].map((id) => repo.findProduct(db, id)));
    return new Map(rows.filter((p) => p !== undefined).map((p) => [p.id, p.names]));
  }

  async function ordersOut(rows: OrderRow[], lang: Lang) {
    const n = await names(rows.map((r) => r.product_id));
    return rows.map((r) => orderData(r, localized(n.get(r.product_id) ?? { en: '', zh: '', ft: '' }, lang)));
  }

  async function eligibility(auth: AuthContext, productId: string): Promise<EarnEligibilityData> {
    const p = await repo.findProduct(db, productId);
    if (!p) refuse('NOT_FOUND');
    const book = bookOf(auth);
    const bal = await ledger.balance(db, {
      book,
      customerId: auth.customerId,
      accountType: MAIN_ACCOUNT_TYPE,
      currency: p.currency,
    });
    const fund = (await repo.findFunding(db, p.funding_id)) as repo.FundingRow;
    const held = await repo.heldInProduct(db, p.id, auth.customerId);
    const money = await productMoney(deps, db, p, fund);
    let mayBuy = BigInt(p.max_amount_units) - held;
    if (book === 'real' && money.capacityLeft < mayBuy) mayBuy = money.capacityLeft;
    if (bal.availableUnits < mayBuy) mayBuy = bal.availableUnits;
    // The rating's cap is in USDT: it bounds `may_buy` directly for USDT products.
    if (book === 'real' && p.currency === 'USDT' && deps.ratingCapUsdt) {
      const cap = await deps.ratingCapUsdt(auth.customerId);
      if (cap !== null && cap < mayBuy) mayBuy = cap;
    }
    if (mayBuy < 0n) mayBuy = 0n;
    let refusal: EarnEligibilityData['refusal'] = null;
    let vipLevel: number | null = null;
    try {
      vipLevel = (await checkCustomer(deps, auth, p, null)).vipLevel;
      if (mayBuy < BigInt(p.min_amount_units)) {
        // The first amount rule that stops the least purchase.
        await db.transaction().execute((tx) =>
          checkAmount(deps, tx, {
            p,
            fund,
            book,
            customerId: auth.customerId,
            amountUnits: BigInt(p.min_amount_units),
          }),
        );
        if (bal.availableUnits < BigInt(p.min_amount_units))
          refuse('INSUFFICIENT_BALANCE', {
            currency: p.currency,
            available: amountText(bal.availableUnits, p.currency),
          });
      }
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      refusal = { code: error.reason, params: error.params as Record<string, string | number> };
    }
    if (p.vip_level !== null && vipLevel === null && !auth.isDemo)
      vipLevel = await vipLevelOf(deps, auth.customerId, (await repo.setting(db)).vip_levels);
    return {
      eligible: refusal === null,
      refusal,
      may_buy: amountText(mayBuy, p.currency),
      available: amountText(bal.availableUnits, p.currency),
      vip_level: vipLevel,
    };
  }

  const job = { runOnce: () => runEarnJob(deps) };

  return {
    job,
    schedule: (intervalMs: number) => scheduleEarnJob(deps, intervalMs),
    seedDemo: () => seedDemo(deps),

    // ---- web (customers)
    async list(kind: EarnKind, lang: Lang): Promise<ProfitListData> {
      const [list, cutoff, s, profileTier] = await Promise.all([
        productsWithMoney(deps, { kind, states: ['active', 'paused'] }),
        cutoffSetting(deps),
        repo.setting(db),
        deps.featureTier('earn'),
      ]);
      return { items: list.map((x) => webProduct(x, lang, cutoff, profileTier)), vip_levels: s.vip_levels };
    },
    async info(auth: AuthContext | null, productId: string, lang: Lang): Promise<ProfitInfoData> {
      const p = await repo.findProduct(db, productId);
      if (!p || p.state === 'draft') refuse('NOT_FOUND');
      const fund = (await repo.findFunding(db, p.funding_id)) as repo.FundingRow;
      const [money, cutoff, profile, profileTier] = await Promise.all([
        productMoney(deps, db, p, fund),
        cutoffSetting(deps),
        deps.jurisdiction.active(),
        deps.featureTier('earn'),
      ]);
      return {
        product: webProduct({ p, fund, money }, lang, cutoff, profileTier),
        example: exampleOf(p, BigInt(p.min_amount_units)),
        eligibility: auth ? await eligibility(auth, p.id) : null,
        principal_penalty_allowed: profile.earn_principal_penalty,
      };
    },
    async total(auth: AuthContext, kind: EarnKind): Promise<ProfitTotalData> {
      const rows = await repo.customerTotals(db, auth.customerId, kind, bookOf(auth));
      return {
        items: rows.map((r) => ({
          currency: r.currency,
          principal: amountText(BigInt(r.principal), r.currency),
          accrued: amountText(BigInt(r.accrued), r.currency),
          earned: amountText(BigInt(r.earned), r.currency),
          running: Number(r.running),
        })),
      };
    },
    async orders(
      auth: AuthContext,
      q: { kind?: EarnKind; state?: EarnOrderState; page?: string; page_size?: string },
      lang: Lang,
    ): Promise<ProfitOrdersData> {
      return repo.ordersPage(
        db,
        { customerId: auth.customerId, kind: q.kind, states: q.state ? [q.state] : undefined },
        pageOf(q, PAGING),
        (rows) => ordersOut(rows, lang),
      );
    },
    async order(auth: AuthContext, orderId: string, lang: Lang): Promise<ProfitOrderData> {
      const o = await repo.findOrder(db, orderId, { customerId: auth.customerId });
      if (!o) refuse('NOT_FOUND');
      const [order] = await ordersOut([o], lang);
      const accruals = await repo.accrualsOf(db, o.id);
      return {
        order: order as ProfitOrderData['order'],
        accruals: accruals.map((a) => ({
          day: a.day,
          amount: amountText(BigInt(a.amount_units), o.currency),
          posted_at: a.posted_at.getTime(),
        })),
      };
    },
    async buy(auth: AuthContext, body: BuyProfitBody, lang: Lang) {
      const o = await buy(deps, auth, body);
      return (await ordersOut([o], lang))[0];
    },
    quote: (auth: AuthContext, orderId: string): Promise<RedeemQuoteData> => quote(deps, auth, orderId),
    async sell(auth: AuthContext, body: SellProfitBody, lang: Lang) {
      const o = await sell(deps, auth, body);
      return (await ordersOut([o], lang))[0];
    },

    // ---- back office
    adminProducts: () => adminProducts(deps),
    async createProduct(staff: StaffContext, body: AdminEarnProductBody) {
      const row = await createProduct(deps, staff, body);
      return (await adminProducts(deps)).items.find((p) => p.product_id === row.id);
    },
    async productState(staff: StaffContext, productId: string, body: AdminEarnProductStateBody) {
      const row = await changeState(deps, staff, productId, body);
      return (await adminProducts(deps)).items.find((p) => p.product_id === row.id);
    },
    fundingAccounts: () => fundingAccounts(deps),
    async createFunding(staff: StaffContext, body: AdminFundingCreateBody) {
      const row = await createFunding(deps, staff, body);
      return (await fundingAccounts(deps)).items.find((f) => f.funding_id === row.id);
    },
    requestFunding: (staff: StaffContext, fundingId: string, body: AdminFundingRequestBody) =>
      requestFunding(deps, staff, fundingId, body),
    decideFunding: (staff: StaffContext, requestId: string, decision: 'approve' | 'reject', reason: string) =>
      decideFunding(deps, staff, requestId, decision, reason),
    fundingRequests: (q: {
      funding_id?: string;
      state?: 'pending' | 'approved' | 'rejected';
      page?: string;
      page_size?: string;
    }) => fundingRequestsPage(deps, { fundingId: q.funding_id, state: q.state }, pageOf(q, PAGING)),
    async adminOrders(q: {
      product_id?: string;
      state?: EarnOrderState;
      uid?: string;
      states?: EarnOrderState[];
      page?: string;
      page_size?: string;
    }): Promise<Paged<AdminEarnOrderData>> {
      let customerId: string | undefined;
      if (q.uid) {
        customerId = (await deps.customerByUid?.(q.uid)) ?? undefined;
        if (!customerId) return { total: 0, page: 1, page_size: pageOf(q, PAGING).pageSize, items: [] };
      }
      return repo.ordersPage(
        db,
        { productId: q.product_id, customerId, states: q.state ? [q.state] : q.states },
        pageOf(q, PAGING),
        async (rows) => {
          const out = await ordersOut(rows, 'en');
          const uids = (await deps.customerUids?.([...new Set(rows.map((r) => r.customer_id))])) ?? new Map();
          return out.map((o, i) => {
            const r = rows[i] as OrderRow;
            return { ...o, uid: uids.get(r.customer_id) ?? '', customer_id: r.customer_id, book: r.book };
          });
        },
      );
    },
    async accrualRuns(q: { page?: string; page_size?: string }): Promise<Paged<AdminAccrualRunData>> {
      const page = await repo.runsPage(db, pageOf(q, PAGING));
      return {
        ...page,
        items: page.items.map((r) => ({
          run_id: r.id,
          cutoff_at: r.cutoff_at.getTime(),
          orders: r.orders,
          total: Object.fromEntries(
            Object.entries(r.totals).map(([c, units]) => [c, amountText(BigInt(units), c)]),
          ),
          matured: r.matured,
          demo_orders: r.demo_orders,
          started_at: r.started_at.getTime(),
          finished_at: r.finished_at?.getTime() ?? null,
        })),
      };
    },
    settings: () => settings(deps),
    updateSettings: (staff: StaffContext, body: AdminEarnSettingsBody) => updateSettings(deps, staff, body),
  };
}

export type Earn = ReturnType<typeof createEarn>;
