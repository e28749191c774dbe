import {
  AddMarginBody,
  AdminContractSettingsBody,
  AdminInsuranceFundBody,
  AdminPositionsQuery,
  CancelContractOrderBody,
  CloseAllContractsBody,
  CloseContractBody,
  CommonFields,
  ContractClosesQuery,
  ContractExportQuery,
  ContractFundingQuery,
  ContractHistoryQuery,
  ContractOrdersQuery,
  ContractPositionsQuery,
  ContractQuoteQuery,
  ContractsQuery,
  OpenContractBody,
  SetTpSlBody,
} from '@bourse/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { langOf, ok } from '../../http/envelope.ts';
import { authOf, staffOf } from '../../http/request.ts';
import { sendCsv } from '../../lib/csv.ts';
import type { ContractsAdmin } from './admin.ts';
import { contractRecordsCsv } from './export.ts';
import type { ContractsService } from './service.ts';

const tags = ['contracts'];
const read = { auth: 'required' as const };
const write = { auth: 'required' as const, idempotent: true };
const pub = { auth: 'optional' as const };

/** Customer calls under /api/web (docs/api.md, "Contracts"): trading, then the records. */
export function contractsRoutes(service: ContractsService) {
  return async (app: FastifyInstance) => {
    const r = registrar(app);
    tradingRoutes(service, r);
    recordRoutes(service, r);
    exportRoute(service, app);
  };
}

/** A GET (query) or POST (body, idempotent) route answering the envelope. */
function registrar(app: FastifyInstance) {
  const get = <Q>(
    url: string,
    summary: string,
    querystring: unknown,
    config: object,
    run: (r: FastifyRequest, q: Q) => Promise<unknown>,
  ) =>
    app.get(url, { schema: { tags, summary, querystring: querystring as object }, config }, async (request) =>
      ok(request, await run(request, request.query as Q)),
    );
  const post = <B>(
    url: string,
    summary: string,
    body: unknown,
    run: (r: FastifyRequest, b: B) => Promise<unknown>,
  ) =>
    app.post(url, { schema: { tags, summary, body: body as object }, config: write }, async (request) =>
      ok(request, await run(request, request.body as B)),
    );
  return { get, post };
}

type Registrar = ReturnType<typeof registrar>;

/** The contract list, quotes, and every call that changes an order or a position. */
function tradingRoutes(service: ContractsService, { get, post }: Registrar) {
  get<ContractsQuery>(
    '/getContracts',
    'Contract instruments and every rule an order is checked against',
    ContractsQuery,
    pub,
    async (r, q) => ({
      items: await service.contracts(q.symbol, r.auth ?? null),
    }),
  );
  get<ContractQuoteQuery>(
    '/getContractQuote',
    "The server's preview of an order (margin, fee, liquidation price)",
    ContractQuoteQuery,
    pub,
    (r, q) => service.quote(r.auth ?? null, q),
  );
  post<OpenContractBody>(
    '/openContract',
    'Open a position (market) or place a pending order (limit)',
    OpenContractBody,
    (r, b) => service.open(authOf(r), b),
  );
  post<CancelContractOrderBody>(
    '/cancelContractOrder',
    'Cancel a pending contract order',
    CancelContractOrderBody,
    (r, b) => service.cancelOrder(authOf(r), b.order_id),
  );
  post<CloseContractBody>(
    '/closeContract',
    'Close a position, or some of its lots',
    CloseContractBody,
    (r, b) => service.close(authOf(r), b.position_id, b.lots),
  );
  post<CloseAllContractsBody>(
    '/closeAllContracts',
    'Close every open position (of one instrument)',
    CloseAllContractsBody,
    (r, b) => service.closeAll(authOf(r), b.symbol, langOf(r)),
  );
  post<SetTpSlBody>('/setContractTpSl', 'Set or clear take-profit / stop-loss', SetTpSlBody, (r, b) =>
    service.setTpSl(authOf(r), b),
  );
  post<AddMarginBody>(
    '/addContractMargin',
    "Add margin to a position (≤ the instrument's maximum top-up)",
    AddMarginBody,
    (r, b) => service.addMargin(authOf(r), b),
  );
}

/** The customer's positions and the record lists of /contractRecord. */
function recordRoutes(service: ContractsService, { get }: Registrar) {
  get<ContractPositionsQuery>(
    '/getContractPositions',
    'My open positions with live P&L and risk rate',
    ContractPositionsQuery,
    read,
    async (r, q) => ({
      items: await service.positions(authOf(r), q.symbol),
    }),
  );
  get<ContractOrdersQuery>(
    '/getContractOrders',
    'My contract orders (pending by default)',
    ContractOrdersQuery,
    read,
    (r, q) => service.orders(authOf(r), q),
  );
  get<ContractHistoryQuery>(
    '/getContractHistory',
    'My closed, liquidated and delivered positions',
    ContractHistoryQuery,
    read,
    (r, q) => service.history(authOf(r), q),
  );
  get<ContractClosesQuery>(
    '/getContractCloses',
    'Every close of my positions',
    ContractClosesQuery,
    read,
    (r, q) => service.closes(authOf(r), q),
  );
  get<ContractFundingQuery>(
    '/getContractFunding',
    'Funding charged and received',
    ContractFundingQuery,
    read,
    (r, q) => service.funding(authOf(r), q),
  );
}

/** One record list as CSV. */
function exportRoute(service: ContractsService, app: FastifyInstance) {
  app.get(
    '/exportContractRecords',
    {
      schema: {
        tags,
        summary:
          'One contract record list (history, orders, closes or funding) as CSV, header row in the request language',
        querystring: ContractExportQuery,
      },
      config: read,
    },
    async (request, reply) => {
      const q = request.query as ContractExportQuery;
      const csv = await contractRecordsCsv(service, authOf(request), q, langOf(request));
      return sendCsv(reply, `contracts-${q.list}.csv`, csv);
    },
  );
}

const BookQuery = Type.Object(
  { ...CommonFields, book: Type.Optional(Type.Union([Type.Literal('real'), Type.Literal('demo')])) },
  { additionalProperties: false },
);
const SymbolQuery = Type.Object(
  { ...CommonFields, symbol: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })) },
  { additionalProperties: false },
);

/** Back-office calls under /api/admin. None sets a price or closes a position (there is no such call). */
export function contractsAdminRoutes(admin: ContractsAdmin) {
  return async (app: FastifyInstance) => {
    const tags = ['admin'];
    const risk = { permission: 'risk.read' as const };
    app.get(
      '/contracts/settings',
      {
        schema: { tags, summary: 'Contract settings per instrument', querystring: SymbolQuery },
        config: { permission: 'markets.write' as const },
      },
      async (request) =>
        ok(request, { items: await admin.settings((request.query as { symbol?: string }).symbol) }),
    );
    app.post(
      '/contracts/settings',
      {
        schema: {
          tags,
          summary: 'Change contract settings (new orders only; audited)',
          body: AdminContractSettingsBody,
        },
        config: { permission: 'markets.write' as const },
      },
      async (request) =>
        ok(request, await admin.updateSettings(staffOf(request), request.body as AdminContractSettingsBody)),
    );
    app.get(
      '/contracts/exposure',
      {
        schema: { tags, summary: 'Open positions and exposure per instrument', querystring: BookQuery },
        config: risk,
      },
      async (request) =>
        ok(request, {
          items: await admin.exposure((request.query as { book?: 'real' | 'demo' }).book ?? 'real'),
        }),
    );
    app.get(
      '/contracts/positions',
      {
        schema: { tags, summary: 'Contract positions of every customer', querystring: AdminPositionsQuery },
        config: risk,
      },
      async (request) => ok(request, await admin.positions(request.query as AdminPositionsQuery)),
    );
    app.get(
      '/contracts/insurance',
      {
        schema: { tags, summary: 'The insurance account and its latest movements', querystring: BookQuery },
        config: risk,
      },
      async (request) =>
        ok(request, await admin.insurance((request.query as { book?: 'real' | 'demo' }).book ?? 'real')),
    );
    app.post(
      '/contracts/insurance/fund',
      {
        schema: {
          tags,
          summary: 'Pay capital into the insurance account (audited)',
          body: AdminInsuranceFundBody,
        },
        config: { permission: 'adjustments.create' as const },
      },
      async (request) =>
        ok(
          request,
          await admin.fundInsurance(
            staffOf(request),
            request.body as AdminInsuranceFundBody,
            (request.body as { rtoken?: string }).rtoken ?? request.id,
          ),
        ),
    );
  };
}
