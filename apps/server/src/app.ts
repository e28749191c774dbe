import fs from 'node:fs';
import path from 'node:path';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import { errorHandler, sendReason } from './http/envelope.ts';
import { registerHealth } from './http/health.ts';
import { registerIdempotency, registerRequestHooks } from './http/hooks.ts';
import { type IdempotencyStore, idempotencyStore } from './http/idempotency.ts';
import { clientErrorHandler, INPUT_LIMITS, registerInputGate } from './http/input.ts';
import { registerAccessLimits } from './http/rate-limit.ts';
import { Refusal } from './http/refusal.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { newId } from './lib/ids.ts';
import { accountsRoutes, createAccounts, createWalletLogin } from './modules/accounts/index.ts';
import { assetsRoutes, createAssets } from './modules/assets/index.ts';
import { contentRoutes, createContent } from './modules/content/index.ts';
import {
  contractsAdminRoutes,
  contractsRoutes,
  createContractsAdmin,
  createContractsConsumer,
  createContractsService,
  createRiskEngine,
  startContracts,
} from './modules/contracts/index.ts';
import {
  createDeposits,
  createEmbeddedProvider,
  custodyRoutes,
  DEMO_CUSTODY_XPUB,
  depositsAdminRoutes,
  depositsRoutes,
  loadCustodySecret,
} from './modules/deposits/index.ts';
import {
  createJurisdiction,
  jurisdictionAdminRoutes,
  jurisdictionRoutes,
} from './modules/jurisdiction/index.ts';
import { createLedger, scheduleVerification } from './modules/ledger/index.ts';
import { createMarket, createTradingHours, marketAdminRoutes, marketRoutes } from './modules/market/index.ts';
import { createNotifier } from './modules/notify/index.ts';
import { createOptions, optionsAdminRoutes, optionsRoutes } from './modules/options/index.ts';
import { createProof, proofRoutes, scheduleProofs } from './modules/proof/index.ts';
import {
  createMarketMaker,
  createSpot,
  registerSpotChannels,
  spotAdminRoutes,
  spotRoutes,
} from './modules/spot/index.ts';
import {
  backOfficeRoutes,
  createAuditLog,
  createBackOffice,
  createStaff,
  customerSummaries,
  registerStaffHook,
  staffRoutes,
} from './modules/staff/index.ts';
import {
  createBook,
  createEmbeddedPayoutProvider,
  createSecurity,
  createWithdrawals,
  hasTradePassword,
  schedulePayouts,
  withdrawalsAdminRoutes,
  withdrawalsRoutes,
  withdrawalsWebhookRoutes,
} from './modules/withdrawals/index.ts';
import { registerWebsocket } from './ws/index.ts';

export type AppDeps = {
  config: Config;
  db: Db;
  secret: string;
  clock?: Clock;
  /** Tests wrap the idempotency store to stop a request at a chosen point (as a crash would). */
  idempotency?: (store: IdempotencyStore) => IdempotencyStore;
  /** Tests pass a silent logger; production uses the pino logger built from the config. */
  logger?: Logger | false;
};

/** Never log a token, password, code or signature, in a body or in a query string. */
const SECRET_QUERY = /([?&](?:token|password\d?|old_password|code|signature)=)[^&]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[redacted]');
}

export function loggerOptions(config: Pick<Config, 'logLevel'>) {
  return {
    level: config.logLevel,
    redact: ['req.headers.authorization', 'req.headers.token', 'req.headers.cookie'],
    serializers: {
      req: (req: FastifyRequest) => ({ method: req.method, url: redactUrl(req.url), ip: req.ip }),
    },
  };
}

/** Builds the whole server: modules as plugins, hooks, static apps. Tests drive it with inject(). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, db } = deps;
  const clock = deps.clock ?? systemClock;
  const app: FastifyInstance = Fastify({
    ...(deps.logger
      ? { loggerInstance: deps.logger }
      : { logger: deps.logger === false ? false : loggerOptions(config) }),
    bodyLimit: config.bodyLimitBytes,
    // Oversized request lines and headers are answered in the envelope (http/input.ts).
    http: { maxHeaderSize: INPUT_LIMITS.headerBytesMax },
    clientErrorHandler,
    requestIdHeader: 'x-request-id',
    // Request ids only label log lines: the wall-clock time prefix is fine here.
    genReqId: () => newId('req'),
    ajv: {
      customOptions: { removeAdditional: false, coerceTypes: false, allErrors: false, useDefaults: false },
    },
    return503OnClosing: true,
  }) as unknown as FastifyInstance;
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.removeContentTypeParser('text/plain');
  await app.register(formbody, { bodyLimit: config.bodyLimitBytes });
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Bourse API',
        version: '0.1.0',
        description: 'Envelope { code, msg, data, reason?, params? } — see docs/api.md',
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  const log = app.log as unknown as Logger;
  const notifier = await createNotifier({
    db,
    log,
    clock,
    smtp: config.smtpUrl ? { url: config.smtpUrl, from: config.smtpFrom } : null,
  });
  const ledger = createLedger({ db, clock, log });
  // The audit log comes first: every module offering staff calls gets it passed in.
  const audit = createAuditLog({ db, clock });
  app.decorate('audit', audit);
  const accounts = createAccounts({
    db,
    clock,
    log,
    secret: deps.secret,
    notifier,
    config,
    hasTradePassword: (customerId) => hasTradePassword(db, customerId),
    onDemoCreated: async (customerId) => {
      await ledger.grantDemoFunds(db, { customerId, idempotencyKey: `demo-grant:${customerId}` });
    },
  });
  const wallet = createWalletLogin({ db, clock, accounts });
  if (config.demoContent) await accounts.ensureDemoCustomer();
  const staff = createStaff({ db, clock, log, secret: deps.secret, config, audit });
  app.decorate('staffService', staff);
  await staff.ensureFirstAdministrator();
  const backOffice = createBackOffice({
    db,
    clock,
    audit,
    ledger,
    config,
    onSessionsEnded: (customerId) => accounts.sessionsEnded(customerId),
  });
  const ledgerCheck = scheduleVerification({
    verify: async () => backOffice.storeLedgerReport('schedule', await ledger.verify()),
    log,
    intervalMs: config.ledgerVerifyIntervalMs,
  });
  app.addHook('onClose', async () => ledgerCheck.stop());

  app.setErrorHandler(errorHandler(config.bodyLimitBytes));
  registerInputGate(app);
  registerRequestHooks(app, {
    sessions: accounts.sessions,
    checkAccessLimits: await registerAccessLimits(app, {
      clock,
      limits: { perIp: config.accessRateLimitPerIp, perAccount: config.accessRateLimitPerAccount },
    }),
  });

  registerStaffHook(app, staff);
  // After both principals are known: a key belongs to the customer or staff member, not the session.
  const store = idempotencyStore(db, { log });
  registerIdempotency(app, { store: deps.idempotency?.(store) ?? store, clock, secret: deps.secret });

  // /healthz (detail=1: memory, market maker) and /metrics (http/health.ts).
  const health = registerHealth(app, { db, clock });
  await app.register(accountsRoutes({ accounts, wallet, feedMode: config.feed }), { prefix: '/api/web' });
  const hub = registerWebsocket(app, {
    clock,
    idleTimeoutMs: config.wsIdleTimeoutMs,
    // `{main_type: 4, token}`: a customer session for private channels (modules/spot).
    authenticate: async (token) => {
      let session: Awaited<ReturnType<typeof accounts.sessions.resolve>>;
      try {
        session = await accounts.sessions.resolve(token);
      } catch (error) {
        // An unknown or ended session is an expected refusal: the socket stays anonymous. Anything
        // else (the database down) is rethrown and logged by the hub.
        if (error instanceof Refusal) return null;
        throw error;
      }
      const uid = await accounts.uidOf(session.customerId);
      return uid ? { customerId: session.customerId, uid, sessionId: session.sessionId } : null;
    },
    // Sessions that end (logout, password, staff, expiry) lose their private channels within 5 s.
    endedSessions: (sessionIds) => accounts.endedSessions(sessionIds),
    sessionCheckIntervalMs: config.wsSessionCheckMs,
  });
  accounts.onSessionsEnded((customerId) => void hub.sessionsEnded(customerId));
  app.addHook('onClose', async () => hub.close());
  const market = await createMarket({ db, clock, log, config, registry: hub.registry });
  app.decorate('market', market);
  await app.register(marketRoutes(market), { prefix: '/api/web' });
  await app.register(marketAdminRoutes(createTradingHours({ db, clock, audit, market })), {
    prefix: '/api/admin',
  });
  const content = createContent({ db, clock });
  if (config.demoContent) await content.seedDemo();
  await app.register(contentRoutes(content), { prefix: '/api/web' });
  app.addHook('onClose', async () => market.close());
  await market.start();

  // Assets and deposits: balances with USDT values from the market, transfers, records, custody.
  const assets = createAssets({ db, ledger, market, clock });
  app.decorate('assets', assets);
  if (!config.custodyXpub) {
    log.warn('CUSTODY_XPUB is unset: deposit addresses derive from the PUBLISHED TEST xpub (demo/dev only)');
  }
  let custodySecret: string | null = null;
  const custodyProvider = createEmbeddedProvider({
    db,
    clock,
    xpub: config.custodyXpub ?? DEMO_CUSTODY_XPUB,
    webhookSecret: () => {
      custodySecret ??= loadCustodySecret({
        configured: config.custodyWebhookSecret,
        dataDir: config.dataDir,
      });
      return custodySecret;
    },
  });
  const deposits = createDeposits({ db, ledger, clock, log, provider: custodyProvider, audit });
  assets.records.register(deposits.rechargeSource);
  assets.setChainInfo((currency) => deposits.chainsOf(currency));
  await app.register(assetsRoutes({ db, assets }), { prefix: '/api/web' });
  await app.register(depositsRoutes({ deposits }), { prefix: '/api/web' });
  await app.register(custodyRoutes({ deposits, provider: custodyProvider }), { prefix: '/api/custody' });
  await app.register(depositsAdminRoutes({ deposits }), { prefix: '/api/admin' });

  // Withdrawals: trade password, address book, bank cards and wallets, the policy, payouts.
  const withdrawalSecurity = createSecurity({
    db,
    clock,
    secret: deps.secret,
    checkLoginPassword: accounts.checkPassword,
  });
  const withdrawalBook = createBook({ db, clock, secret: deps.secret });
  const withdrawals = createWithdrawals({
    db,
    clock,
    log,
    ledger,
    book: withdrawalBook,
    security: withdrawalSecurity,
    provider: createEmbeddedPayoutProvider({ blockMs: config.payoutSimBlockMs }),
    audit,
    notifier,
    contacts: accounts,
    customerSummaries: (ids, now) => customerSummaries(db, ids, now),
    bankPaidApprovalThreshold: config.bankPayoutApprovalThreshold,
  });
  const payoutJob = schedulePayouts({ withdrawals, log, intervalMs: config.payoutCheckIntervalMs });
  app.addHook('onClose', async () => payoutJob.stop());
  app.decorate('withdrawalsService', withdrawals);
  app.decorate('payoutJob', payoutJob);
  await app.register(withdrawalsRoutes({ withdrawals, book: withdrawalBook, security: withdrawalSecurity }), {
    prefix: '/api/web',
  });
  await app.register(withdrawalsAdminRoutes({ withdrawals }), { prefix: '/api/admin' });
  await app.register(
    withdrawalsWebhookRoutes({
      withdrawals,
      clock,
      webhookSecret: () => {
        custodySecret ??= loadCustodySecret({
          configured: config.custodyWebhookSecret,
          dataDir: config.dataDir,
        });
        return custodySecret;
      },
    }),
    { prefix: '/api/custody' },
  );

  const proof = createProof({ db, clock, log, ledger });
  await app.register(proofRoutes(proof), { prefix: '/api/web' });
  const proofSchedule = scheduleProofs({ proof, log, intervalMs: config.proofIntervalMs });
  app.decorate('proof', { service: proof, schedule: proofSchedule });
  app.addHook('onClose', async () => {
    proofSchedule.stop();
    await proofSchedule.ready;
  });

  // Spot trading: books rebuilt from the journal before the first request (modules/spot).
  const spot = createSpot({ db, clock, log, ledger, market, audit, snapshotEvery: config.spotSnapshotEvery });
  await spot.start();
  const spotChannels = registerSpotChannels({ registry: hub.registry, spot, ledger, db, log, clock });
  hub.onAuthenticated((identity) => spotChannels.authenticated(identity));
  const marketMaker = createMarketMaker({
    db,
    clock,
    log,
    ledger,
    market,
    spot,
    accounts,
    audit,
    enabledByConfig: config.marketMaker === 'auto' ? config.demoContent : config.marketMaker === 'on',
  });
  await marketMaker.start();
  health.watch(marketMaker);
  app.decorate('spot', spot);
  app.decorate('marketMaker', marketMaker);
  app.addHook('onClose', async () => {
    marketMaker.stop();
    await marketMaker.settled();
    await spot.close();
  });
  await app.register(spotRoutes(spot), { prefix: '/api/web' });
  await app.register(spotAdminRoutes(spot, marketMaker), { prefix: '/api/admin' });

  // Jurisdiction profiles (leverage caps, the options switch) and up/down options (modules/jurisdiction,
  // modules/options). Options settle through `options.consumer`, run by the risk engine.
  const jurisdiction = createJurisdiction({ db, clock, audit });
  app.decorate('jurisdiction', jurisdiction);
  await app.register(jurisdictionRoutes(jurisdiction), { prefix: '/api/web' });
  await app.register(jurisdictionAdminRoutes(jurisdiction), { prefix: '/api/admin' });
  const options = createOptions({
    db,
    clock,
    log,
    ledger,
    market,
    audit,
    jurisdiction,
    customerLabels: accounts.customerLabels,
  });
  await options.start();
  app.decorate('optionsService', options);
  await app.register(optionsRoutes(options), { prefix: '/api/web' });
  await app.register(optionsAdminRoutes(options), { prefix: '/api/admin' });

  // Contracts and the risk engine (modules/contracts): settings seeded, the demo insurance seed, then
  // the engine runs the consumers in order — contracts, then options — on every recorded tick. With
  // FEED_TICK_MS=0 (prices only when stepped: tests) the engine too runs only when stepped.
  const contracts = createContractsService({ db, clock, log, ledger, market, jurisdiction });
  await startContracts({ db, clock, ledger, market, service: contracts });
  const riskEngine = createRiskEngine({
    db,
    clock,
    log,
    consumers: [
      createContractsConsumer({ clock, log, ledger, market, pairOf: contracts.pairOf }),
      options.consumer,
    ],
  });
  await riskEngine.init();
  if (config.feedTickMs > 0) riskEngine.start();
  app.addHook('onClose', async () => riskEngine.stop());
  app.decorate('contracts', { service: contracts, engine: riskEngine });
  await app.register(contractsRoutes(contracts), { prefix: '/api/web' });
  await app.register(
    contractsAdminRoutes(
      createContractsAdmin({
        db,
        clock,
        ledger,
        market,
        audit,
        service: contracts,
        customerLabels: accounts.customerLabels,
      }),
    ),
    { prefix: '/api/admin' },
  );

  backOffice.useMarket(market);
  await app.register(staffRoutes({ staff, audit }), { prefix: '/api/admin' });
  await app.register(backOfficeRoutes({ backOffice, staff }), { prefix: '/api/admin' });

  await registerStaticApps(app, config);
  return app;
}

async function registerStaticApps(app: FastifyInstance, config: Config): Promise<void> {
  const webIndex = path.join(config.webDist, 'index.html');
  const adminIndex = path.join(config.adminDist, 'index.html');
  // Checked once: the apps are built before the server starts, not while it runs.
  const hasWeb = fs.existsSync(webIndex);
  const hasAdmin = fs.existsSync(adminIndex);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: config.webDist,
      wildcard: false,
      index: false,
      serveDotFiles: false,
    });
  }
  if (hasAdmin) {
    await app.register(fastifyStatic, {
      root: config.adminDist,
      prefix: '/admin/',
      decorateReply: false,
      wildcard: false,
    });
  }
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const url = request.url.split('?')[0] ?? '/';
    const wantsPage = request.method === 'GET' && !url.startsWith('/api') && !url.startsWith('/ws');
    if (!wantsPage) return sendReason(request, reply, 'NOT_FOUND');
    // /admin is the back office's; the customer app's history fallback never answers there.
    if (url === '/admin' || url.startsWith('/admin/')) {
      if (hasAdmin) return reply.type('text/html').send(fs.createReadStream(adminIndex));
      return reply.code(404).type('text/plain').send('The back office is not part of this build yet.');
    }
    if (hasWeb) {
      return reply.type('text/html').header('cache-control', 'no-cache').send(fs.createReadStream(webIndex));
    }
    return reply.code(404).type('text/plain').send('The web app is not built: run `npm run build`.');
  });
}
