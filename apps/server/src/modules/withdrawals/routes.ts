import {
  AddAddressBody,
  AddBankBody,
  AddressIdBody,
  AddressListQuery,
  AddWalletBody,
  EmptyBody,
  GoogleCodeBody,
  PayeeIdBody,
  TradePasswordBindBody,
  TradePasswordEditBody,
  WithdrawalIdBody,
  WithdrawBody,
  WithdrawListQuery,
  WithdrawRulesQuery,
} from '@bourse/protocol';
import type { FastifyInstance } from 'fastify';
import { langOf, ok } from '../../http/envelope.ts';
import { dateRangeOf, pageOf as sharedPageOf } from '../../http/paging.ts';
import { refuse } from '../../http/refusal.ts';
import { authOf } from '../../http/request.ts';
import { sendCsv } from '../../lib/csv.ts';
import type { Book } from './book.ts';
import { toCsv } from './csv.ts';
import type { WithdrawalFilter } from './repo.ts';
import type { Security } from './security.ts';
import { PAGE_SIZE_MAX, STATUSES_OF_CODE, type Withdrawals } from './service.ts';

type ListQuery = {
  status?: '0' | '1' | '2';
  method?: 'address' | 'bank';
  currency?: string;
  start_time?: string;
  end_time?: string;
  page?: string;
  page_size?: string;
};

export function listFilter(customerId: string, q: ListQuery): WithdrawalFilter {
  const { from, to } = dateRangeOf(q);
  return {
    customerId,
    ...(q.status ? { statuses: STATUSES_OF_CODE[q.status] } : {}),
    ...(q.method ? { method: q.method } : {}),
    ...(q.currency ? { currency: q.currency } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  };
}

/** The withdrawal lists' paging: 20 a page by default, at most PAGE_SIZE_MAX. */
export const pageOf = (q: { page?: string; page_size?: string }) =>
  sharedPageOf(q, { pageSizeDefault: 20, pageSizeMax: PAGE_SIZE_MAX });

const tags = ['withdrawals'];
const read = { auth: 'required' as const };
const write = { auth: 'required' as const, idempotent: true };

/** Customer calls under /api/web: thin — parse, call the service, wrap in the envelope. */
export function withdrawalsRoutes(deps: { withdrawals: Withdrawals; book: Book; security: Security }) {
  const { withdrawals, book, security } = deps;
  return async (app: FastifyInstance) => {
    securityRoutes(app, security);
    bookRoutes(app, book);
    requestRoutes(app, withdrawals);
  };
}

/** The trade password and the Google authenticator. */
function securityRoutes(app: FastifyInstance, security: Security): void {
  app.get(
    '/hasTpassword',
    {
      schema: {
        tags,
        summary: 'Whether the trade password (and Google code) are set',
        querystring: EmptyBody,
      },
      config: read,
    },
    async (request) => ok(request, await security.status(authOf(request))),
  );
  app.post(
    '/bindTradePassword',
    {
      schema: {
        tags,
        summary: 'Set the 6-digit trade password, confirmed by the login password',
        body: TradePasswordBindBody,
      },
      config: { ...write, accessLimited: true },
    },
    async (request) =>
      ok(request, await security.bind(authOf(request), request.body as TradePasswordBindBody)),
  );
  app.post(
    '/editTradePassword',
    { schema: { tags, summary: 'Change the trade password', body: TradePasswordEditBody }, config: write },
    async (request) =>
      ok(request, await security.change(authOf(request), request.body as TradePasswordEditBody)),
  );
  app.get(
    '/googleSecret',
    {
      schema: {
        tags,
        summary: 'A new Google authenticator secret to scan (not yet enabled)',
        querystring: EmptyBody,
      },
      config: read,
    },
    async (request) =>
      ok(
        request,
        await security.googleSecret(authOf(request), `Bourse ${authOf(request).customerId.slice(-6)}`),
      ),
  );
  app.post(
    '/googleEnable',
    {
      schema: {
        tags,
        summary: 'Enable the Google authenticator with a code from it',
        body: GoogleCodeBody,
      },
      config: write,
    },
    async (request) =>
      ok(
        request,
        await security.googleEnable(authOf(request), (request.body as { google_code: string }).google_code),
      ),
  );
  app.post(
    '/googleDisable',
    {
      schema: {
        tags,
        summary: 'Disable the Google authenticator with a code from it',
        body: GoogleCodeBody,
      },
      config: write,
    },
    async (request) =>
      ok(
        request,
        await security.googleDisable(authOf(request), (request.body as { google_code: string }).google_code),
      ),
  );
}

/** The address book: withdrawal addresses, bank cards and e-wallets. */
function bookRoutes(app: FastifyInstance, book: Book): void {
  app.get(
    '/getAddressList',
    {
      schema: {
        tags,
        summary: 'Saved withdrawal addresses and the networks per currency',
        querystring: AddressListQuery,
      },
      config: read,
    },
    async (request) =>
      ok(
        request,
        await book.listAddresses(authOf(request), (request.query as { currency?: string }).currency),
      ),
  );
  app.post(
    '/addAddress',
    {
      schema: { tags, summary: 'Save a withdrawal address (checked per network)', body: AddAddressBody },
      config: write,
    },
    async (request) => ok(request, await book.addAddress(authOf(request), request.body as AddAddressBody)),
  );
  app.post(
    '/delAddress',
    { schema: { tags, summary: 'Delete a saved withdrawal address', body: AddressIdBody }, config: write },
    async (request) =>
      ok(
        request,
        await book.deleteAddress(authOf(request), (request.body as { address_id: string }).address_id),
      ),
  );

  app.get(
    '/getBankList',
    { schema: { tags, summary: 'Bound bank cards, masked', querystring: EmptyBody }, config: read },
    async (request) => ok(request, await book.listBanks(authOf(request))),
  );
  app.post(
    '/addBank',
    { schema: { tags, summary: 'Bind a bank card (sealed at rest)', body: AddBankBody }, config: write },
    async (request) => ok(request, await book.addBank(authOf(request), request.body as AddBankBody)),
  );
  app.get(
    '/getWalletList',
    { schema: { tags, summary: 'Bound e-wallets, masked', querystring: EmptyBody }, config: read },
    async (request) => ok(request, await book.listWallets(authOf(request))),
  );
  app.post(
    '/addWallet',
    {
      schema: { tags, summary: 'Bind an e-wallet (Alipay, WeChat; sealed at rest)', body: AddWalletBody },
      config: write,
    },
    async (request) => ok(request, await book.addWallet(authOf(request), request.body as AddWalletBody)),
  );
  app.post(
    '/delPayee',
    { schema: { tags, summary: 'Unbind a bank card or wallet', body: PayeeIdBody }, config: write },
    async (request) =>
      ok(request, await book.deletePayee(authOf(request), (request.body as { payee_id: string }).payee_id)),
  );
}

/** The rules shown first, requesting and cancelling, the records and their CSV. */
function requestRoutes(app: FastifyInstance, withdrawals: Withdrawals): void {
  app.get(
    '/getWithdrawRules',
    {
      schema: {
        tags,
        summary: 'The withdrawal rules, shown before the customer submits',
        querystring: WithdrawRulesQuery,
      },
      config: read,
    },
    async (request) =>
      ok(
        request,
        await withdrawals.rulesForScreen(authOf(request), (request.query as { currency: string }).currency),
      ),
  );
  app.post(
    '/withdraw',
    {
      schema: { tags, summary: 'Request a withdrawal to a saved address or bank card', body: WithdrawBody },
      config: write,
    },
    async (request) => {
      const body = request.body as WithdrawBody;
      const destinationId = body.method === 'address' ? body.address_id : body.payee_id;
      if (!destinationId)
        refuse('FIELD_REQUIRED', { field: body.method === 'address' ? 'address_id' : 'payee_id' });
      return ok(
        request,
        await withdrawals.request(authOf(request), {
          method: body.method,
          destinationId,
          currency: body.currency,
          amount: body.amount,
          tradePassword: body.trade_password,
          ...(body.google_code ? { googleCode: body.google_code } : {}),
        }),
      );
    },
  );
  app.post(
    '/cancelWithdraw',
    {
      schema: { tags, summary: 'Cancel a pending withdrawal (funds unfrozen)', body: WithdrawalIdBody },
      config: write,
    },
    async (request) =>
      ok(
        request,
        await withdrawals.cancel(authOf(request), (request.body as { withdrawal_id: string }).withdrawal_id),
      ),
  );
  app.get(
    '/getWithdrawList',
    {
      schema: {
        tags,
        summary: 'Withdrawal records with filters and pages',
        querystring: WithdrawListQuery,
      },
      config: read,
    },
    async (request) => {
      const q = request.query as ListQuery;
      return ok(request, await withdrawals.list(listFilter(authOf(request).customerId, q), pageOf(q)));
    },
  );
  app.get(
    '/exportWithdrawList',
    {
      schema: { tags, summary: 'Withdrawal records as CSV (same filters)', querystring: WithdrawListQuery },
      config: read,
    },
    async (request, reply) => {
      const rows = await withdrawals.exportRows(
        listFilter(authOf(request).customerId, request.query as ListQuery),
      );
      return sendCsv(reply, 'withdrawals.csv', toCsv(rows, langOf(request)));
    },
  );
}
