import {
  type AdminC2cDecideBody,
  type AdminC2cMerchantBody,
  type AdminC2cOfferBody,
  type AdminC2cOrderData,
  type AdminC2cOrderDetailData,
  type AdminC2cOrdersQuery,
  type AdminC2cStateBody,
  C2C_DISPUTE_REASONS,
  C2C_LIMITS,
  C2C_METHODS,
  C2C_STATES,
  type C2cAccountSaveBody,
  type C2cCreateOrderBody,
  type C2cDisputeBody,
  type C2cMarkPaidBody,
  type C2cMerchantApplyBody,
  type C2cOffersQuery,
  type C2cOrderData,
  type C2cOrdersQuery,
  type C2cRulesData,
  type C2cSendMessageBody,
  type Paged,
} from '@bourse/protocol';
import { C2C_AGE_BANDS } from '@bourse/risk';
import type { AuthContext } from '../../http/context.ts';
import { pageOf } from '../../http/paging.ts';
import { refuse } from '../../http/refusal.ts';
import type { StaffContext } from '../../http/staff.ts';
import { accountData, deleteAccount, saveAccount } from './accounts.ts';
import { cancel, confirm, markPaid, openDispute } from './acting.ts';
import { messageData, messagesOf, sendMessage, staffMessage } from './chat.ts';
import {
  type Book,
  C2C_JOB_INTERVAL_MS,
  type C2cDeps,
  CONFIRM_WINDOW_MINUTES,
  coinText,
  DEFAULT_WINDOW_MINUTES,
  DISPUTE_RESPONSE_MINUTES,
  REMINDER_BEFORE_MINUTES,
} from './context.ts';
import { seedDemoDesk } from './desk.ts';
import { decide, fourEyesUnits } from './disputes.ts';
import { runC2cJob, scheduleC2cJob } from './job.ts';
import {
  applyMerchant,
  createMerchant,
  createOffer,
  merchantsData,
  offerOf,
  offersData,
  setMerchantState,
  setOfferState,
  updateOffer,
} from './offers.ts';
import { createOrder } from './ordering.ts';
import type { OrderRow } from './repo.ts';
import * as repo from './repo.ts';
import { orderData, partyOrder } from './transition.ts';

const PAGING = { pageSizeDefault: 20, pageSizeMax: C2C_LIMITS.pageSizeMax };

/** C2C, wired from its parts (README.md). All SQL is in repo.ts; every figure is `@bourse/risk`'s. */
export function createC2c(deps: C2cDeps) {
  const { db } = deps;

  async function view(o: OrderRow, viewer: string | null): Promise<C2cOrderData> {
    const merchant = await repo.findMerchant(db, o.merchant_id);
    return orderData(o, {
      viewer,
      merchantName: merchant?.name ?? '',
      timeline: await repo.events(db, o.id),
    });
  }

  async function adminView(o: OrderRow): Promise<AdminC2cOrderData> {
    const uids =
      (await deps.customerUids?.([o.customer_id, o.merchant_customer_id])) ?? new Map<string, string>();
    return {
      ...(await view(o, null)),
      customer_uid: uids.get(o.customer_id) ?? null,
      merchant_uid: uids.get(o.merchant_customer_id) ?? null,
      first_decision:
        o.first_outcome && o.first_by && o.first_at
          ? {
              outcome: o.first_outcome,
              reason: o.first_reason ?? '',
              by: o.first_by,
              at: o.first_at.getTime(),
            }
          : null,
      awaiting_second: o.state === 'disputed' && o.first_by !== null,
    };
  }

  async function rules(): Promise<C2cRulesData> {
    const tier = await deps.featureTier();
    return {
      default_window_minutes: DEFAULT_WINDOW_MINUTES,
      confirm_window_minutes: CONFIRM_WINDOW_MINUTES,
      dispute_response_minutes: DISPUTE_RESPONSE_MINUTES,
      reminder_before_minutes: REMINDER_BEFORE_MINUTES,
      fee_orderer: '0',
      payer_name_rule: 'verified_real_name',
      account_name_rule: 'verified_real_name',
      merchant_tier: 'advanced',
      order_tier: tier === 'none' ? 'primary' : tier,
      age_bands: C2C_AGE_BANDS.map((b) => ({
        age_days_from: b.ageDaysFrom,
        max_amount: b.maxUnits === null ? null : coinText(b.maxUnits, 8),
      })),
      open_orders_max: C2C_LIMITS.openOrdersPerCustomerMax,
      four_eyes_above: coinText(fourEyesUnits(deps), 8),
      auto_resolution: [
        { when: 'confirm_deadline_passed_and_receiver_silent', outcome: 'release' },
        { when: 'seller_opened_and_payer_silent', outcome: 'return' },
        { when: 'payer_opened_and_receiver_silent', outcome: 'release' },
      ],
      dispute_reasons: C2C_DISPUTE_REASONS,
      limits_order: ['offer_min', 'offer_max', 'offer_remaining', 'method_max', 'account_age'],
      methods: C2C_METHODS,
      states: C2C_STATES,
    };
  }

  async function evidence(staff: StaffContext, o: OrderRow) {
    const all = await repo.messages(db, o.id, 0, C2C_LIMITS.messagesPerOrderMax);
    const files = all.filter((m) => m.file_id !== null);
    const ids = [...files.map((m) => m.file_id as string), ...(o.proof_file_id ? [o.proof_file_id] : [])];
    const links = await deps.uploads.staffLinks(staff.staffId, ids, {
      about: `c2c order ${o.id}`,
      purposes: ['remittance_proof'],
    });
    const item = (fileId: string, at: Date) => ({
      file_id: fileId,
      url: links.get(fileId)?.url ?? null,
      at: at.getTime(),
    });
    const buyer = files.filter((m) => m.sender_id === o.buyer_id).map((m) => item(m.file_id as string, m.at));
    if (o.proof_file_id && o.paid_at) buyer.unshift(item(o.proof_file_id, o.paid_at));
    const seller = files
      .filter((m) => m.sender_id === o.seller_id)
      .map((m) => item(m.file_id as string, m.at));
    return { buyer, seller, messages: all.map(messageData) };
  }

  const job = {
    runOnce: () => runC2cJob(deps),
  };

  return {
    rules,
    offers: async (q: C2cOffersQuery, book: Book) => offersData(deps, { ...q, book }, pageOf(q, PAGING)),
    offer: (offerId: string, book: Book) => offerOf(deps, offerId, book),
    createOrder: async (auth: AuthContext, body: C2cCreateOrderBody) =>
      view(await createOrder(deps, auth, body), auth.customerId),
    async orders(auth: AuthContext, q: C2cOrdersQuery): Promise<Paged<C2cOrderData>> {
      const { page, pageSize } = pageOf(q, PAGING);
      let merchantId: string | undefined;
      if (q.role === 'merchant') {
        const m = await repo.merchantOfCustomer(db, auth.customerId);
        if (!m) return { total: 0, page, page_size: pageSize, items: [] };
        merchantId = m.id;
      }
      const { rows, total } = await repo.ordersPage(db, {
        ...(merchantId ? { merchantId } : { customerId: auth.customerId }),
        state: q.state,
        limit: pageSize,
        offset: (page - 1) * pageSize,
      });
      const items = await Promise.all(rows.map((o) => view(o, auth.customerId)));
      return { total, page, page_size: pageSize, items };
    },
    async order(auth: AuthContext, id: string) {
      const o = await repo.findOrder(db, id);
      if (!o || (o.customer_id !== auth.customerId && o.merchant_customer_id !== auth.customerId))
        refuse('NOT_FOUND');
      return view(o, auth.customerId);
    },
    markPaid: async (auth: AuthContext, body: C2cMarkPaidBody) =>
      view(await markPaid(deps, auth, body), auth.customerId),
    confirm: async (auth: AuthContext, id: string) => view(await confirm(deps, auth, id), auth.customerId),
    cancel: async (auth: AuthContext, id: string) => view(await cancel(deps, auth, id), auth.customerId),
    dispute: async (auth: AuthContext, body: C2cDisputeBody) =>
      view(await openDispute(deps, auth, body), auth.customerId),
    messages: (auth: AuthContext, id: string, after: number) => messagesOf(deps, auth, id, after),
    /** Either party's link to a file attached to their order (`c2c:<order>:…`); anyone else NOT_FOUND. */
    async fileLink(auth: AuthContext, q: { order_id: string; file_id: string }) {
      const order = await partyOrder(deps.db, q.order_id, auth.customerId);
      return deps.uploads.partyLink(auth.customerId, q.file_id, `c2c:${order.id}:`);
    },
    sendMessage: (auth: AuthContext, body: C2cSendMessageBody) => sendMessage(deps, auth, body),
    accounts: async (auth: AuthContext) => (await repo.accountsOf(db, auth.customerId)).map(accountData),
    saveAccount: async (auth: AuthContext, body: C2cAccountSaveBody) =>
      accountData(await saveAccount(deps, auth, body)),
    deleteAccount: (auth: AuthContext, id: string) => deleteAccount(deps, auth, id),
    applyMerchant: async (auth: AuthContext, body: C2cMerchantApplyBody) => {
      const m = await applyMerchant(deps, auth, body);
      return { merchant_id: m.id, state: m.state };
    },

    // ---- back office
    merchants: () => merchantsData(deps),
    createMerchant: async (staff: StaffContext, body: AdminC2cMerchantBody) => {
      const m = await createMerchant(deps, staff, body);
      return { merchant_id: m.id, state: m.state };
    },
    setMerchantState: async (staff: StaffContext, id: string, body: AdminC2cStateBody) => {
      const m = await setMerchantState(deps, staff, id, body);
      return { merchant_id: m.id, state: m.state };
    },
    adminOffers: (q: C2cOffersQuery) => offersData(deps, { ...q, all: true }, pageOf(q, PAGING)),
    createOffer: async (staff: StaffContext, body: AdminC2cOfferBody) => {
      const o = await createOffer(deps, staff, body);
      return { offer_id: o.id, state: o.state };
    },
    updateOffer: async (staff: StaffContext, id: string, body: AdminC2cOfferBody) => {
      const o = await updateOffer(deps, staff, id, body);
      return { offer_id: o.id, state: o.state };
    },
    setOfferState: async (staff: StaffContext, id: string, body: AdminC2cStateBody) => {
      const o = await setOfferState(deps, staff, id, body);
      return { offer_id: o.id, state: o.state };
    },
    async adminOrders(q: AdminC2cOrdersQuery, disputesOnly = false): Promise<Paged<AdminC2cOrderData>> {
      const { page, pageSize } = pageOf(q, PAGING);
      const { rows, total } = await repo.ordersPage(db, {
        state: disputesOnly ? 'disputed' : q.state,
        live: !disputesOnly && !q.state,
        limit: pageSize,
        offset: (page - 1) * pageSize,
      });
      return { total, page, page_size: pageSize, items: await Promise.all(rows.map(adminView)) };
    },
    async adminOrder(staff: StaffContext, id: string): Promise<AdminC2cOrderDetailData> {
      const o = await repo.findOrder(db, id);
      if (!o) refuse('NOT_FOUND');
      const e = await evidence(staff, o);
      return {
        ...(await adminView(o)),
        messages: e.messages,
        evidence: { buyer: e.buyer, seller: e.seller },
      };
    },
    decide: async (staff: StaffContext, id: string, body: AdminC2cDecideBody) => {
      const d = await decide(deps, staff, id, body);
      return adminView(d.row);
    },
    staffMessage: (staff: StaffContext, id: string, text: string) => staffMessage(deps, staff, id, text),
    job,
    schedule: (intervalMs: number = C2C_JOB_INTERVAL_MS) => scheduleC2cJob(deps, intervalMs),
    /** Demo content: the demo desk (its demo account's id from wiring.ts), its offers and play money. */
    seedDemoDesk: (deskCustomerId: string) => seedDemoDesk(deps, deskCustomerId),
  };
}

export type C2c = ReturnType<typeof createC2c>;
