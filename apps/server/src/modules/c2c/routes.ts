import {
  C2cAccountDeleteBody,
  C2cAccountSaveBody,
  C2cCreateOrderBody,
  C2cDisputeBody,
  C2cEmptyQuery,
  C2cFileQuery,
  C2cMarkPaidBody,
  C2cMerchantApplyBody,
  C2cMessagesQuery,
  C2cOfferQuery,
  C2cOffersQuery,
  C2cOrderBody,
  C2cOrderQuery,
  C2cOrdersQuery,
  C2cSendMessageBody,
} from '@bourse/protocol';
import { authOf } from '../../http/request.ts';
import { bodyOf as body, queryOf as query, type WebRoute, webRouteTable } from '../../http/route-table.ts';
import type { C2c } from './service.ts';

/**
 * Customer calls under /api/web, named from the spec's C2C routes (`c2c_index` → `c2cOffers`,
 * `c2c_create` → `c2cCreateOrder`, `c2c_order` → `c2cOrders` / `c2cOrder`, `c2c_submit` →
 * `c2cMarkPaid`, `c2c_account` → `c2cAccounts` / `c2cAccountSave` / `c2cAccountDelete`, `c2c_rule` →
 * `c2cRules`). Every POST is idempotent by rtoken; the proof and attachments are `uploadDocument`
 * with purpose `remittance_proof`.
 */
function routes(c2c: C2c): WebRoute[] {
  return [
    {
      method: 'GET',
      url: '/c2cRules',
      summary: 'Every C2C rule as data: windows, limits, payer name, fees, disputes',
      schema: { querystring: C2cEmptyQuery },
      auth: 'optional',
      handler: () => c2c.rules(),
    },
    {
      method: 'GET',
      url: '/c2cOffers',
      summary: 'Active offers of approved merchants: price (or feed + spread), limits, methods, record',
      schema: { querystring: C2cOffersQuery },
      auth: 'optional',
      // A demo account sees the demo desk's offers (play money); everyone else the real ones.
      handler: (r) => c2c.offers(query(r), r.auth?.isDemo ? 'demo' : 'real'),
    },
    {
      method: 'POST',
      url: '/c2cCreateOrder',
      summary: 'Order on an offer: the seller’s coins into escrow before the payment details are shown',
      schema: { body: C2cCreateOrderBody },
      auth: 'required',
      handler: (r) => c2c.createOrder(authOf(r), body(r)),
    },
    {
      method: 'GET',
      url: '/c2cOrders',
      summary: 'My C2C orders (or, role=merchant, the orders on my offers), newest first',
      schema: { querystring: C2cOrdersQuery },
      auth: 'required',
      handler: (r) => c2c.orders(authOf(r), query(r)),
    },
    {
      method: 'GET',
      url: '/c2cOrder',
      summary: 'One order with its payment details, deadlines and timeline',
      schema: { querystring: C2cOrderQuery },
      auth: 'required',
      handler: (r) => c2c.order(authOf(r), query<C2cOrderQuery>(r).order_id),
    },
    {
      method: 'POST',
      url: '/c2cMarkPaid',
      summary: 'The payer marks paid: payer name (= verified real name), bank, remittance proof',
      schema: { body: C2cMarkPaidBody },
      auth: 'required',
      handler: (r) => c2c.markPaid(authOf(r), body(r)),
    },
    {
      method: 'POST',
      url: '/c2cConfirm',
      summary: 'The receiver confirms the money arrived: escrow released to the buyer',
      schema: { body: C2cOrderBody },
      auth: 'required',
      handler: (r) => c2c.confirm(authOf(r), body<C2cOrderBody>(r).order_id),
    },
    {
      method: 'POST',
      url: '/c2cCancel',
      summary: 'The payer cancels before paying: escrow back to the seller',
      schema: { body: C2cOrderBody },
      auth: 'required',
      handler: (r) => c2c.cancel(authOf(r), body<C2cOrderBody>(r).order_id),
    },
    {
      method: 'POST',
      url: '/c2cDispute',
      summary: 'Open a dispute on a paid order (reason, note, evidence); escrow stays',
      schema: { body: C2cDisputeBody },
      auth: 'required',
      handler: (r) => c2c.dispute(authOf(r), body(r)),
    },
    {
      method: 'GET',
      url: '/c2cOffer',
      summary: 'One offer of my book (paused ones too, with their state); another book’s is NOT_FOUND',
      schema: { querystring: C2cOfferQuery },
      auth: 'optional',
      handler: (r) => c2c.offer(query<C2cOfferQuery>(r).offer_id, r.auth?.isDemo ? 'demo' : 'real'),
    },
    {
      method: 'GET',
      url: '/c2cFileLink',
      summary:
        'A short-lived link to a file of my order (the proof, evidence or a chat attachment), either side',
      schema: { querystring: C2cFileQuery },
      auth: 'required',
      handler: (r) => c2c.fileLink(authOf(r), query<C2cFileQuery>(r)),
    },
    {
      method: 'GET',
      url: '/c2cMessages',
      summary: 'The order’s chat after a sequence number',
      schema: { querystring: C2cMessagesQuery },
      auth: 'required',
      handler: (r) =>
        c2c.messages(
          authOf(r),
          query<C2cMessagesQuery>(r).order_id,
          Number(query<C2cMessagesQuery>(r).after ?? '0'),
        ),
    },
    {
      method: 'POST',
      url: '/c2cSendMessage',
      summary: 'Write in the order’s chat (text and/or an attachment); delivered live',
      schema: { body: C2cSendMessageBody },
      auth: 'required',
      handler: (r) => c2c.sendMessage(authOf(r), body(r)),
    },
    {
      method: 'GET',
      url: '/c2cAccounts',
      summary: 'My collection accounts',
      schema: { querystring: C2cEmptyQuery },
      auth: 'required',
      handler: (r) => c2c.accounts(authOf(r)),
    },
    {
      method: 'POST',
      url: '/c2cAccountSave',
      summary: 'Add or edit a collection account (verified name; IBAN and SWIFT checked)',
      schema: { body: C2cAccountSaveBody },
      auth: 'required',
      handler: (r) => c2c.saveAccount(authOf(r), body(r)),
    },
    {
      method: 'POST',
      url: '/c2cAccountDelete',
      summary: 'Remove a collection account (matched orders keep their copy)',
      schema: { body: C2cAccountDeleteBody },
      auth: 'required',
      handler: (r) => c2c.deleteAccount(authOf(r), body<C2cAccountDeleteBody>(r).account_id),
    },
    {
      method: 'POST',
      url: '/c2cMerchantApply',
      summary: 'Ask to become a merchant (advanced verification; staff approve)',
      schema: { body: C2cMerchantApplyBody },
      auth: 'required',
      handler: (r) => c2c.applyMerchant(authOf(r), body(r)),
    },
  ];
}

export function c2cRoutes(c2c: C2c) {
  return webRouteTable(['c2c'], routes(c2c));
}
