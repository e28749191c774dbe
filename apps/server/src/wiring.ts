/**
 * The server's modules wired together, one named step per area (buildApp in app.ts runs them in
 * this order: hooks and routes register in the order the steps run). Each step takes the shared
 * core and what earlier steps built, and returns what later steps need.
 */
import { parseDecimal, scaleOf } from '@bourse/money';
import { C2C_CHANNELS, INBOX_CHANNELS, SPOT_LIMITS, SUPPORT_CHANNELS } from '@bourse/protocol';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import { scheduleJob } from './db/schedule.ts';
import { errorHandler } from './http/envelope.ts';
import { registerHealth } from './http/health.ts';
import { registerIdempotency, registerRequestHooks } from './http/hooks.ts';
import { type IdempotencyStore, idempotencyStore } from './http/idempotency.ts';
import { registerInputGate } from './http/input.ts';
import { registerAccessLimits } from './http/rate-limit.ts';
import { Refusal } from './http/refusal.ts';
import type { Clock } from './lib/clock.ts';
import {
  accountsRoutes,
  antiPhishingPhrases,
  createAccounts,
  createWalletLogin,
  customerActiveLookup,
  customerBasics,
  customerIdByUid,
  customerIdentities,
  invitationCodeOf,
  inviteeCounts,
  inviteesPage,
  inviterChain,
  profileAdminRoutes,
  profileRoutes,
  recordSecurityEvent,
  sharedDevice,
} from './modules/accounts/index.ts';
import { agreementsAdminRoutes, agreementsRoutes, createAgreements } from './modules/agreements/index.ts';
import { apiKeysAdminRoutes, apiKeysRoutes, createApiKeys } from './modules/apikeys/index.ts';
import { assetsRoutes, createAssets } from './modules/assets/index.ts';
import { botApiRoutes } from './modules/botapi/index.ts';
import { C2C_DEMO_NAME, c2cAdminRoutes, c2cRoutes, createC2c, DEMO_DESK } from './modules/c2c/index.ts';
import {
  contentAdminRoutes,
  contentRoutes,
  createContent,
  createContentAdmin,
} from './modules/content/index.ts';
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
  createEarn,
  EARN_JOB_INTERVAL_MS,
  type EarnDeps,
  earnAdminRoutes,
  earnRoutes,
  ledgerVipInputs,
} from './modules/earn/index.ts';
import { createFunds, fundsAdminRoutes, fundsRoutes } from './modules/funds/index.ts';
import { createInbox, type Inbox, inboxAdminRoutes, inboxRoutes } from './modules/inbox/index.ts';
import {
  createJurisdiction,
  type Jurisdiction,
  jurisdictionAdminRoutes,
  jurisdictionRoutes,
} from './modules/jurisdiction/index.ts';
import {
  createLaunchpad,
  launchpadAdminRoutes,
  launchpadRoutes,
  registerListedCoins,
} from './modules/launchpad/index.ts';
import { createLedger, type Ledger, scheduleVerification } from './modules/ledger/index.ts';
import {
  createLoans,
  LOANS_JOB_INTERVAL_MS,
  ledgerCreditInputs,
  loansAdminRoutes,
  loansRoutes,
} from './modules/loans/index.ts';
import {
  BOOK_FEED_SYMBOL,
  createMarket,
  createTradingHours,
  type Market,
  marketAdminRoutes,
  marketRoutes,
} from './modules/market/index.ts';
import { createNotifier, type Notifier, withKind } from './modules/notify/index.ts';
import { createOptions, optionsAdminRoutes, optionsRoutes } from './modules/options/index.ts';
import { createProof, proofRoutes, scheduleProofs } from './modules/proof/index.ts';
import { createReferral, referralAdminRoutes, referralRoutes } from './modules/referral/index.ts';
import { createSignin, signinAdminRoutes, signinRoutes } from './modules/signin/index.ts';
import {
  createMarketMaker,
  createSpot,
  feeMarkets,
  feesPaidAfter,
  registerSpotChannels,
  spotAdminRoutes,
  spotRoutes,
} from './modules/spot/index.ts';
import {
  type AuditService,
  createAuditLog,
  createBackOffice,
  createStaff,
  customerSummaries,
  registerStaffHook,
} from './modules/staff/index.ts';
import { createSuitability, suitabilityAdminRoutes, suitabilityRoutes } from './modules/suitability/index.ts';
import { createSupport, supportAdminRoutes, supportRoutes } from './modules/support/index.ts';
import {
  createDocumentCipher,
  createUploads,
  documentKey,
  filesRoutes,
  scheduleSweep,
  uploadsAdminRoutes,
  uploadsRoutes,
} from './modules/uploads/index.ts';
import {
  createVerification,
  verificationAdminRoutes,
  verificationRoutes,
} from './modules/verification/index.ts';
import {
  createBook,
  createEmbeddedPayoutProvider,
  createSecurity,
  createWithdrawals,
  hasGoogleAuth,
  hasTradePassword,
  schedulePayouts,
  sharedPayoutDetails,
  withdrawalsAdminRoutes,
  withdrawalsRoutes,
  withdrawalsWebhookRoutes,
} from './modules/withdrawals/index.ts';
import { registerWebsocket, type WsHub } from './ws/index.ts';

/** What every step shares: the server, its settings, the database, the clock, and the ledger, audit log and notifier. */
export type Core = {
  app: FastifyInstance;
  config: Config;
  db: Db;
  clock: Clock;
  log: Logger;
  secret: string;
  ledger: Ledger;
  audit: AuditService;
  notifier: Notifier;
  /** The in-app inbox every notify message also lands in (modules/inbox; live and routes in wireInbox). */
  inbox: Inbox;
};

/** The ledger, the audit log (every module offering staff calls gets it) and the notifier. */
export async function createCore(
  input: Omit<Core, 'ledger' | 'audit' | 'notifier' | 'inbox'>,
): Promise<Core> {
  const { app, config, db, clock, log } = input;
  // Coins listed by the launchpad are currencies before any module reads a balance.
  await registerListedCoins(db);
  const audit = createAuditLog({ db, clock });
  const inbox = createInbox({ db, clock, log, audit });
  const notifier = await createNotifier({
    db,
    log,
    clock,
    // Every message to a known customer also lands in their in-app inbox, and their e-mail
    // preference is asked first (modules/inbox; security kinds always go).
    inbox: inbox.port,
    smtp: config.smtpUrl ? { url: config.smtpUrl, from: config.smtpFrom } : null,
    // Every message carries its customer's anti-phishing phrase (accounts' security settings).
    phrases: antiPhishingPhrases(db),
  });
  const ledger = createLedger({ db, clock, log });
  app.decorate('audit', audit);
  return { ...input, ledger, audit, notifier, inbox };
}

/**
 * Who is calling: customers (accounts, wallet login), staff and the back office, the scheduled
 * ledger check; then the request plumbing that needs both principals — errors, the input gate,
 * access limits, sessions, the staff hook, idempotency — and /healthz.
 */
export async function wireAccess(core: Core, idempotency?: (store: IdempotencyStore) => IdempotencyStore) {
  const { app, config, db, clock, log, secret, ledger, audit, notifier } = core;
  // The verification level (0 none, 1 primary, 2 advanced) for the security score: the
  // verification module is built in wireIdentity, after accounts, and fills this in.
  const identityPorts = { verificationLevel: async (_customerId: string): Promise<number> => 0 };
  // Versioned agreements: registering with the agree box accepts the user agreement in force.
  const agreements = createAgreements({ db, clock, audit });
  if (config.demoContent) await agreements.seedDemo();
  const accounts = createAccounts({
    db,
    clock,
    log,
    secret: secret,
    notifier: withKind(notifier, 'security'),
    config,
    hasTradePassword: (customerId) => hasTradePassword(db, customerId),
    // The security score (profile): Google authenticator from withdrawals, the verification level
    // from modules/verification (wired in wireIdentity).
    hasGoogleAuth: (customerId) => hasGoogleAuth(db, customerId),
    verificationTier: (customerId) => identityPorts.verificationLevel(customerId),
    audit,
    onRegistered: (customerId, meta) => agreements.acceptAtRegistration(customerId, meta),
    onDemoCreated: async (customerId) => {
      await ledger.grantDemoFunds(db, { customerId, idempotencyKey: `demo-grant:${customerId}` });
    },
  });
  const wallet = createWalletLogin({ db, clock, accounts });
  if (config.demoContent) await accounts.ensureDemoCustomer();
  const staff = createStaff({ db, clock, log, secret: secret, config, audit });
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
  // `claims`: a spot order forwarded here from another process records that request's claim (SPOT_LEASES).
  const { claimFrom: claims } = registerIdempotency(app, {
    store: idempotency?.(store) ?? store,
    clock,
    secret: secret,
  });

  // /healthz (detail=1: memory, market maker) and /metrics (http/health.ts).
  const health = registerHealth(app, { db, clock });
  await app.register(accountsRoutes({ accounts, wallet, feedMode: config.feed }), { prefix: '/api/web' });
  await app.register(profileRoutes(accounts.profile), { prefix: '/api/web' });
  await app.register(profileAdminRoutes(accounts.profile), { prefix: '/api/admin' });
  await app.register(agreementsRoutes(agreements), { prefix: '/api/web' });
  await app.register(agreementsAdminRoutes(agreements), { prefix: '/api/admin' });
  return { accounts, backOffice, health, staff, identityPorts, claims };
}

export type Access = Awaited<ReturnType<typeof wireAccess>>;

/** Prices: the websocket hub (private channels end with their session), the market, and content. */
export async function wireMarket(core: Core, access: Access) {
  const { app, config, db, clock, log, audit } = core;
  const { accounts } = access;
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
  await app.register(contentAdminRoutes(createContentAdmin({ db, clock, audit, content })), {
    prefix: '/api/admin',
  });
  app.addHook('onClose', async () => market.close());
  await market.start();
  return { hub, market };
}

/**
 * Who a customer is: the jurisdiction profile (what may be offered, and which verification each
 * feature needs), the document upload pipeline and identity verification. Before money, which
 * asks verification before deposits and withdrawals.
 */
export async function wireIdentity(core: Core, access: Access) {
  const { app, config, db, clock, log, secret, audit, notifier } = core;
  const { accounts, staff } = access;
  const jurisdiction = createJurisdiction({ db, clock, audit });
  app.decorate('jurisdiction', jurisdiction);
  await app.register(jurisdictionRoutes(jurisdiction), { prefix: '/api/web' });
  await app.register(jurisdictionAdminRoutes(jurisdiction), { prefix: '/api/admin' });

  // Uploads (modules/uploads): documents sealed with DOCUMENT_KEY, served through signed links.
  const key = documentKey(config.documentKey, secret);
  if (key.derived) {
    log.warn(
      'DOCUMENT_KEY is unset: identity documents are sealed with a key derived from SECRET (set DOCUMENT_KEY)',
    );
  }
  const cipher = createDocumentCipher(key.key);
  const uploads = createUploads({ db, clock, log, secret, cipher, audit });
  const sweep = scheduleSweep({ uploads, log, intervalMs: config.documentSweepIntervalMs });
  app.addHook('onClose', async () => sweep.stop());
  app.decorate('uploads', { service: uploads, sweep });
  await app.register(uploadsRoutes({ uploads }), { prefix: '/api/web' });
  await app.register(uploadsAdminRoutes({ uploads }), { prefix: '/api/admin' });
  await app.register(filesRoutes({ uploads }), { prefix: '/api/files' });

  // Identity verification (modules/verification): tiers, the review queue, what each tier unlocks.
  const verification = createVerification({
    db,
    clock,
    log,
    secret,
    cipher,
    uploads,
    activeProfile: async () => (await jurisdiction.active()).id,
    customers: async (ids) => new Map((await customerIdentities(db, ids)).map((c) => [c.id, c])),
    fixCountry: (tx, customerId, country) => accounts.fixCountry(tx, customerId, country),
    contacts: accounts,
    notifier: withKind(notifier, 'verification'),
    audit,
    staffNames: (ids) => staff.names(ids),
  });
  app.decorate('verification', verification);
  access.identityPorts.verificationLevel = async (customerId) =>
    (await verification.tierOf(customerId)).level;
  await app.register(verificationRoutes({ verification }), { prefix: '/api/web' });
  await app.register(verificationAdminRoutes({ verification }), { prefix: '/api/admin' });
  return { jurisdiction, uploads, verification };
}

export type Identity = Awaited<ReturnType<typeof wireIdentity>>;

/** Money in and out: assets and records, deposits and custody, withdrawals and payouts, the proof of liabilities. */
export async function wireMoney(core: Core, access: Access, market: Market, identity: Identity) {
  const { app, config, db, clock, log, secret, ledger, audit, notifier } = core;
  const { accounts } = access;
  const { verification } = identity;
  // The staff queues' customer context, composed from accounts, deposits, withdrawals and verification (staff module).
  const summaries = (ids: readonly string[], now: Date) =>
    customerSummaries(db, ids, now, (some) => verification.summaries(some));
  // Assets and deposits: balances with USDT values from the market, transfers, records, custody.
  const assets = createAssets({ db, ledger, market, clock });
  app.decorate('assets', assets);
  if (!config.custodyXpub) {
    log.warn('CUSTODY_XPUB is unset: deposit addresses derive from the PUBLISHED TEST xpub (demo/dev only)');
  }
  let secretLoaded: string | null = null;
  const custodySecret = () => {
    secretLoaded ??= loadCustodySecret({ configured: config.custodyWebhookSecret, dataDir: config.dataDir });
    return secretLoaded;
  };
  const custodyProvider = createEmbeddedProvider({
    db,
    clock,
    xpub: config.custodyXpub ?? DEMO_CUSTODY_XPUB,
    webhookSecret: custodySecret,
  });
  const deposits = createDeposits({
    db,
    ledger,
    clock,
    log,
    provider: custodyProvider,
    audit,
    customerSummaries: summaries,
    requireFeature: (customerId, feature) => verification.requireFeature(customerId, feature),
    // Remittance proofs are uploads (purpose deposit_proof), kept as long as verification keeps documents.
    uploads: identity.uploads,
    documentRetainUntil: (at) => verification.documentRetainUntil(at),
    // Credited, held below the minimum, bank deposit confirmed or rejected: told after the commit.
    notifier: withKind(notifier, 'deposit'),
    contacts: accounts,
  });
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
    secret: secret,
    checkLoginPassword: accounts.checkPassword,
  });
  const withdrawalBook = createBook({ db, clock, secret: secret });
  const withdrawals = createWithdrawals({
    db,
    clock,
    log,
    ledger,
    book: withdrawalBook,
    security: withdrawalSecurity,
    provider: createEmbeddedPayoutProvider({ blockMs: config.payoutSimBlockMs }),
    audit,
    notifier: withKind(notifier, 'withdrawal'),
    contacts: accounts,
    customerSummaries: summaries,
    requireFeature: (customerId, feature) => verification.requireFeature(customerId, feature),
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
      webhookSecret: custodySecret,
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
}

/** Spot trading and its market maker. */
export async function wireSpot(core: Core, access: Access, prices: Awaited<ReturnType<typeof wireMarket>>) {
  const { app, config, db, clock, log, ledger, audit } = core;
  const { accounts, health, claims } = access;
  const { hub, market } = prices;
  // Spot trading: books rebuilt from the journal before the first request (modules/spot).
  const spot = createSpot({
    db,
    clock,
    log,
    ledger,
    market,
    audit,
    snapshotEvery: config.spotSnapshotEvery,
    queueMax: config.spotQueueMax,
    // SPOT_LEASES=on (needs REDIS_URL, checked by config.ts): one owner process per book.
    ...(config.spotLeases && config.redisUrl
      ? {
          leases: {
            ttlMs: config.spotLeaseTtlMs,
            redisUrl: config.redisUrl,
            redisPrefix: config.redisPrefix,
            secret: core.secret,
          },
          claims,
        }
      : {}),
  });
  await spot.start();
  // Coins that trade only here (launchpad listings) are priced by their own real book.
  market.setBookSource(spot.bookSource);
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
    await marketMaker.close();
    await spot.close();
  });
  await app.register(spotRoutes(spot), { prefix: '/api/web' });
  await app.register(spotAdminRoutes(spot, marketMaker), { prefix: '/api/admin' });
}

/** Up/down options, contracts and the risk engine that settles both, under the jurisdiction profile. */
export async function wireDerivatives(
  core: Core,
  access: Access,
  market: Market,
  jurisdiction: Jurisdiction,
) {
  const { app, config, db, clock, log, ledger, audit } = core;
  const { accounts } = access;
  // Up/down options (modules/options), capped by the jurisdiction profile (wired in wireIdentity).
  // Options settle through `options.consumer`, run by the risk engine.
  // The risk questionnaire (modules/suitability): the rating caps what contracts and options take on
  // the real book, through the `ratingCaps` port (they never read its tables).
  const suitability = createSuitability({ db, clock, audit, jurisdiction });
  app.decorate('suitability', suitability);
  await app.register(suitabilityRoutes(suitability), { prefix: '/api/web' });
  await app.register(suitabilityAdminRoutes(suitability), { prefix: '/api/admin' });
  const options = createOptions({
    db,
    clock,
    log,
    ledger,
    market,
    audit,
    jurisdiction,
    ratingCaps: suitability,
    customerLabels: accounts.customerLabels,
  });
  await options.start();
  app.decorate('optionsService', options);
  await app.register(optionsRoutes(options), { prefix: '/api/web' });
  await app.register(optionsAdminRoutes(options), { prefix: '/api/admin' });

  // Contracts and the risk engine (modules/contracts): settings seeded, the demo insurance seed, then
  // the engine runs the consumers in order — contracts, then options — on every recorded tick. With
  // FEED_TICK_MS=0 (prices only when stepped: tests) the engine too runs only when stepped.
  const contracts = createContractsService({
    db,
    clock,
    log,
    ledger,
    market,
    jurisdiction,
    ratingCaps: suitability,
  });
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
}

/**
 * Earn (modules/earn): fixed-term custody and VIP products. Its ports: the jurisdiction profile, the
 * verification gate (`earn` feature, product tiers), the risk rating and its cap (suitability), USDT
 * values at the recorded reference prices (the assets valuation), the VIP inputs from the ledger, and the
 * notifier (kind `earn`) with the accounts' contacts. The daily accrual job runs every EARN_JOB_INTERVAL_MS
 * on the injected clock.
 */
export async function wireEarn(core: Core, access: Access, identity: Identity) {
  const { app, config, db, clock, log, ledger, audit, notifier } = core;
  const { accounts } = access;
  const { jurisdiction, verification } = identity;
  const suitability = app.suitability;
  const usdtValue = app.assets.usdtValue;
  const deps: EarnDeps = {
    db,
    clock,
    log,
    ledger,
    audit,
    jurisdiction,
    requireFeature: (customerId, feature) => verification.requireFeature(customerId, feature),
    featureTier: (feature) => verification.featureTier(feature),
    tierApproved: async (customerId, tier) => (await verification.tierOf(customerId))[tier] === 'approved',
    rating: async (customerId) => (await suitability.rating(customerId)).rating,
    ratingCapUsdt: async (customerId) => {
      const max = parseDecimal((await suitability.rating(customerId)).allows.earn.max_amount, {
        scale: scaleOf('USDT'),
      });
      return max.ok ? max.units : null;
    },
    ratingCaps: suitability,
    usdtValue,
    vipInputs: ledgerVipInputs({ db, clock, ledger, usdtValue }),
    customerUids: async (ids) => new Map((await customerIdentities(db, ids)).map((c) => [c.id, c.uid])),
    customerByUid: (uid) => customerIdByUid(db, uid),
    notifier: withKind(notifier, 'earn'),
    contacts: accounts,
  };
  const earn = createEarn(deps);
  if (config.demoContent) await earn.seedDemo();
  const job = earn.schedule(EARN_JOB_INTERVAL_MS);
  app.addHook('onClose', async () => job.stop());
  app.decorate('earn', { service: earn, job });
  await app.register(earnRoutes(earn), { prefix: '/api/web' });
  await app.register(earnAdminRoutes(earn), { prefix: '/api/admin' });
}

/**
 * New-coin subscription (modules/launchpad). Its ports: the jurisdiction profile, the verification
 * gate (`launchpad` feature, project tiers), the risk rating and its launchpad cap (suitability), the
 * notifier (kind `launchpad`) with the accounts' contacts.
 * The job (windows, review, allocation, refunds, releases) runs every LAUNCHPAD_JOB_INTERVAL_MS
 * (config) on the injected clock; the coins of every project are registered as currencies before routes open.
 */
export async function wireLaunchpad(core: Core, access: Access, identity: Identity) {
  const { app, config, db, clock, log, ledger, audit, notifier } = core;
  const { accounts } = access;
  const { jurisdiction, verification } = identity;
  const suitability = app.suitability;
  const launchpad = createLaunchpad({
    db,
    clock,
    log,
    ledger,
    audit,
    activeProfile: async () => (await jurisdiction.active()).id,
    requireFeature: (customerId, feature) => verification.requireFeature(customerId, feature),
    featureTier: (feature) => verification.featureTier(feature),
    tierApproved: async (customerId, tier) => (await verification.tierOf(customerId))[tier] === 'approved',
    rating: async (customerId) => (await suitability.rating(customerId)).rating,
    checkCap: (customerId, amountUnits) =>
      suitability.checkCap(customerId, { productClass: 'launchpad', amountUnits }),
    ratingCapUsdt: async (customerId) => {
      const max = parseDecimal((await suitability.rating(customerId)).allows.launchpad.max_amount, {
        scale: scaleOf('USDT'),
      });
      return max.ok ? max.units : null;
    },
    customerUids: async (ids) => new Map((await customerIdentities(db, ids)).map((c) => [c.id, c.uid])),
    customerByUid: (uid) => customerIdByUid(db, uid),
    notifier: withKind(notifier, 'launchpad'),
    contacts: accounts,
    async openSpotMarket(staff, { symbol, name, base, quote, ref_price, ...settings }) {
      await app.market.addInstrument({
        symbol,
        name,
        class: 'crypto_spot',
        base,
        quote,
        price_tick: settings.price_tick,
        lot_size: settings.lot_size,
        max_leverage: '1',
        trading_hours: '24/7',
        status: 'active',
        ref_price,
        feed_symbol: BOOK_FEED_SYMBOL,
      });
      if (app.spot.markets(symbol).length === 0)
        await app.spot.createMarket(staff, { ...settings, symbol, enable: '1' });
    },
  });
  if (config.demoContent) await launchpad.seedDemo();
  const job = launchpad.schedule(config.launchpadJobIntervalMs);
  app.addHook('onClose', async () => job.stop());
  app.decorate('launchpad', { service: launchpad, job });
  await app.register(launchpadRoutes(launchpad), { prefix: '/api/web' });
  await app.register(launchpadAdminRoutes(launchpad), { prefix: '/api/admin' });
}

/**
 * Loans and the credit score (modules/loans). Its ports: the jurisdiction profile (the loan caps),
 * the verification gate (`credit_score` and `loans` features) and the customer's highest approved
 * tier, the rating's loans cap (suitability), the account's age and the ledger's deposits and trades
 * (the score's inputs), the upload pipeline (proofs and vouchers, kept as long as verification keeps
 * documents), the notifier, and the applicant's labels for the back office. Its daily job (loan-days
 * and reminders) runs every LOANS_JOB_INTERVAL_MS on the injected clock.
 */
export async function wireLoans(core: Core, access: Access, identity: Identity) {
  const { app, db, clock, log, ledger, audit, notifier } = core;
  const { accounts } = access;
  const { jurisdiction, verification, uploads } = identity;
  const tierOf = async (customerId: string) => {
    const t = await verification.tierOf(customerId);
    if (t.address === 'approved') return 'address' as const;
    if (t.advanced === 'approved') return 'advanced' as const;
    return t.primary === 'approved' ? ('primary' as const) : ('none' as const);
  };
  const loans = createLoans({
    db,
    clock,
    log,
    ledger,
    audit,
    activeProfile: async () => (await jurisdiction.active()).id,
    requireFeature: (customerId, feature) => verification.requireFeature(customerId, feature),
    // The same rules, carried by lendList and getCreditScore so the pages show them before they refuse.
    featureTier: (feature) => verification.featureTier(feature),
    checkCap: (customerId, amountUnits) =>
      app.suitability.checkCap(customerId, { productClass: 'loans', amountUnits }),
    creditInputs: ledgerCreditInputs({
      db,
      clock,
      ledger,
      tierOf,
      createdAt: async (customerId) =>
        (await customerBasics(db, [customerId], clock.now()))[0]?.created_at ?? null,
    }),
    uploads,
    documentRetainUntil: (at) => verification.documentRetainUntil(at),
    notifier: withKind(notifier, 'loan'),
    contacts: accounts,
    applicants: async (ids) => {
      const now = clock.now();
      const [basics, identities, levels] = await Promise.all([
        customerBasics(db, ids, now),
        customerIdentities(db, ids),
        verification.summaries(ids),
      ]);
      const created = new Map(basics.map((b) => [b.id, b.created_at]));
      const out = new Map();
      for (const c of identities) {
        const at = created.get(c.id);
        out.set(c.id, {
          uid: c.uid,
          name: (await verification.verifiedName(c.id)) ?? c.name ?? c.email ?? c.phone ?? '',
          country: c.country,
          verification_level: levels.get(c.id)?.level ?? 0,
          account_age_days: at ? Math.floor((now.getTime() - at.getTime()) / 86_400_000) : 0,
        });
      }
      return out;
    },
    customerByUid: (uid) => customerIdByUid(db, uid),
  });
  const job = loans.schedule(LOANS_JOB_INTERVAL_MS);
  app.addHook('onClose', async () => job.stop());
  app.decorate('loans', { service: loans, job });
  await app.register(loansRoutes(loans), { prefix: '/api/web' });
  await app.register(loansAdminRoutes(loans), { prefix: '/api/admin' });
}

/**
 * ETF orders (modules/funds): model portfolios bought in the customer's own account through the spot
 * books, after spot and derivatives (it takes spot's order path, the market's prices, the suitability
 * rating and verification from the services those steps decorated). Its job (unfinished orders, the
 * hourly NAV, rebalances) runs on a timer only when the feed does (FEED_TICK_MS > 0); tests step it.
 */
export async function wireFunds(core: Core, access: Access) {
  const { app, config, db, clock, log, ledger, audit } = core;
  const funds = createFunds({
    db,
    clock,
    log,
    ledger,
    market: app.market,
    spot: app.spot,
    audit,
    ratings: {
      checkCap: (customerId, req) => app.suitability.checkCap(customerId, req),
      ratingOf: async (customerId) => (await app.suitability.rating(customerId)).rating,
    },
    requireFeature: (customerId, feature) => app.verification.requireFeature(customerId, feature),
    featureTier: (feature) => app.verification.featureTier(feature),
    customerLabels: access.accounts.customerLabels,
  });
  await funds.start();
  app.decorate('funds', funds);
  if (config.feedTickMs > 0) {
    const job = scheduleJob({
      run: async () => {
        const r = await funds.runJobs();
        return r.resumed + r.nav + r.rebalanced;
      },
      what: 'funds job',
      log,
      intervalMs: 60_000,
    });
    app.addHook('onClose', async () => job.stop());
  }
  await app.register(fundsRoutes(funds), { prefix: '/api/web' });
  await app.register(fundsAdminRoutes(funds), { prefix: '/api/admin' });
}

/**
 * Bots: API keys (modules/apikeys: created with the trade password, secrets sealed with the document
 * key, every action in the customer's security events and notified) and the Binance-compatible spot
 * API under /api/v3 (modules/botapi) over the spot service, the market and the ledger. After spot.
 */
export async function wireBots(core: Core, access: Access) {
  const { app, config, db, clock, log, secret, ledger, audit, notifier } = core;
  const { accounts } = access;
  const security = createSecurity({ db, clock, secret, checkLoginPassword: accounts.checkPassword });
  const keys = createApiKeys({
    db,
    clock,
    log,
    audit,
    notifier: withKind(notifier, 'apikey'),
    cipher: createDocumentCipher(documentKey(config.documentKey, secret).key),
    stepUp: async (customerId, tradePassword, googleCode, tx) => {
      await security.checkTradePassword(customerId, tradePassword);
      await security.checkGoogle(customerId, googleCode, tx);
    },
    contactOf: (customerId) => accounts.contactOf(customerId),
    securityEvent: recordSecurityEvent,
    customerActive: customerActiveLookup(db),
  });
  app.decorate('apiKeys', keys);
  await app.register(apiKeysRoutes(keys), { prefix: '/api/web' });
  await app.register(apiKeysAdminRoutes(keys), { prefix: '/api/admin' });
  await app.register(
    botApiRoutes({
      db,
      clock,
      log,
      spot: app.spot,
      market: app.market,
      ledger,
      keys,
      maxima: { ...app.spot.orderMaxima, openOrdersMax: SPOT_LIMITS.openOrdersPerMarketMax },
      limits: { weightPerMinute: config.botWeightPerMinute, ordersPer10s: config.botOrdersPer10s },
    }),
    { prefix: '/api/v3' },
  );
}

/**
 * C2C (modules/c2c): merchants, offers, escrowed orders, disputes and order chat. Its ports: the
 * verified real name and the advanced tier (verification), the account's age, the feed's price for
 * spread offers (the market: a price fit to trade on, or none), the upload pipeline (proofs,
 * evidence, attachments), the notifier, back-office labels, and live events on the authenticated
 * private channel `c2c_private:<uid>` of the ws registry. Its deadline job runs every
 * C2C_JOB_INTERVAL_MS on the injected clock.
 */
export async function wireC2c(
  core: Core,
  access: Access,
  identity: Identity,
  prices: Awaited<ReturnType<typeof wireMarket>>,
) {
  const { app, config, db, clock, log, ledger, audit, notifier } = core;
  const { verification, uploads } = identity;
  const { hub, market } = prices;
  const uids = new Map<string, string>();
  hub.registry.provide(C2C_CHANNELS.private, {
    check(channel, subscriber) {
      if (!subscriber?.identity) return { reason: 'LOGIN_REQUIRED', params: {} };
      if (`${C2C_CHANNELS.private}${subscriber.identity.uid}` !== channel)
        return { reason: 'FORBIDDEN', params: {} };
      return null;
    },
    snapshot: () => ({}),
  });
  const c2c = createC2c({
    db,
    clock,
    log,
    ledger,
    audit,
    // A demo account has no verified name: its play-money orders carry the fixed demo name.
    verifiedName: async (customerId) =>
      (await customerIdentities(db, [customerId]))[0]?.is_demo
        ? C2C_DEMO_NAME
        : verification.verifiedName(customerId),
    requireFeature: (customerId) => verification.requireFeature(customerId, 'c2c'),
    featureTier: () => verification.featureTier('c2c'),
    merchantTierApproved: async (customerId) =>
      (await verification.tierOf(customerId)).advanced === 'approved',
    accountCreatedAt: async (customerId) =>
      (await customerBasics(db, [customerId], clock.now()))[0]?.created_at ?? null,
    feedPrice: (symbol) => {
      try {
        const p = market.priceForTrading(symbol);
        return { price: p.last, source: p.source, at: p.at };
      } catch (error) {
        if (error instanceof Refusal) return null;
        throw error;
      }
    },
    uploads,
    documentRetainUntil: (at) => verification.documentRetainUntil(at),
    publish: async (customerId, message) => {
      let uid = uids.get(customerId);
      if (!uid) {
        uid = (await customerIdentities(db, [customerId]))[0]?.uid;
        if (!uid) return;
        uids.set(customerId, uid);
      }
      const channel = `${C2C_CHANNELS.private}${uid}`;
      if (hub.registry.hasSubscribers(channel)) hub.registry.publish(channel, () => message);
    },
    notifier: withKind(notifier, 'c2c'),
    contacts: access.accounts,
    customerUids: async (ids) => new Map((await customerIdentities(db, ids)).map((c) => [c.id, c.uid])),
    customerByUid: (uid) => customerIdByUid(db, uid),
    windowMinutesMin: config.c2cWindowMinMinutes,
  });
  if (config.demoContent) {
    // The operator's demo desk: a demo account nobody signs in as, the counterparty of demo accounts.
    const accounts = access.accounts;
    const desk =
      (await accounts.customerIdByEmail(DEMO_DESK.email)) ??
      (
        await accounts.newCustomer({
          identity: { kind: 'email', email: DEMO_DESK.email },
          passwordHash: null,
          invitedBy: null,
          lang: 'en',
          demoExpiresAt: new Date('2100-01-01T00:00:00Z'),
        })
      ).id;
    await c2c.seedDemoDesk(desk);
  }
  const job = c2c.schedule(config.c2cJobIntervalMs);
  app.addHook('onClose', async () => job.stop());
  app.decorate('c2c', { service: c2c, job });
  await app.register(c2cRoutes(c2c), { prefix: '/api/web' });
  await app.register(c2cAdminRoutes(c2c), { prefix: '/api/admin' });
}

/**
 * Notices (modules/inbox): the inbox was built in createCore (notify files into it); here it gets
 * its live side — the authenticated private channel `inbox_private:<uid>` (the new unread count and
 * the notice) and the public `inbox_public` (an announcement went live) — the accounts' address
 * lookup for messages that name no customer, its routes, and the job that sends a scheduled
 * announcement's live event when the clock reaches it.
 */
export async function wireInbox(core: Core, access: Access, prices: Awaited<ReturnType<typeof wireMarket>>) {
  const { app, db, log, inbox } = core;
  const { hub } = prices;
  hub.registry.provide(INBOX_CHANNELS.private, {
    check(channel, subscriber) {
      if (!subscriber?.identity) return { reason: 'LOGIN_REQUIRED', params: {} };
      if (`${INBOX_CHANNELS.private}${subscriber.identity.uid}` !== channel)
        return { reason: 'FORBIDDEN', params: {} };
      return null;
    },
    snapshot: () => ({}),
  });
  hub.registry.provide(INBOX_CHANNELS.public, { check: () => null, snapshot: () => ({}) });
  const uids = new Map<string, string>();
  inbox.connect({
    async publishPrivate(customerId, message) {
      let uid = uids.get(customerId);
      if (!uid) {
        uid = (await customerIdentities(db, [customerId]))[0]?.uid;
        if (!uid) return;
        uids.set(customerId, uid);
      }
      const channel = `${INBOX_CHANNELS.private}${uid}`;
      if (hub.registry.hasSubscribers(channel)) hub.registry.publish(channel, () => message);
    },
    publishPublic(message) {
      if (hub.registry.hasSubscribers(INBOX_CHANNELS.public))
        hub.registry.publish(INBOX_CHANNELS.public, () => message);
    },
    customerOf: async (recipient) =>
      recipient.includes('@') ? access.accounts.customerIdByEmail(recipient.toLowerCase()) : null,
  });
  const job = scheduleJob({
    run: () => inbox.broadcastDue(),
    what: 'announcements job',
    log,
    intervalMs: 30_000,
  });
  app.addHook('onClose', async () => job.stop());
  app.decorate('inbox', { service: inbox, job });
  await app.register(inboxRoutes(inbox), { prefix: '/api/web' });
  await app.register(inboxAdminRoutes(inbox), { prefix: '/api/admin' });
}

/**
 * Customer service (modules/support): conversations with identity from the session, attachments
 * through the upload pipeline (purpose `support`), staff names and codes (the staff module's
 * members), the customer's C2C orders (an order reference must be theirs), and live staff replies
 * on the authenticated private channel `support_private:<uid>`. After wireC2c.
 */
export async function wireSupport(core: Core, access: Access, identity: Identity, prices: { hub: WsHub }) {
  const { app, config, db, clock, log, audit } = core;
  const { hub } = prices;
  const uids = new Map<string, string>();
  hub.registry.provide(SUPPORT_CHANNELS.private, {
    check(channel, subscriber) {
      if (!subscriber?.identity) return { reason: 'LOGIN_REQUIRED', params: {} };
      if (`${SUPPORT_CHANNELS.private}${subscriber.identity.uid}` !== channel)
        return { reason: 'FORBIDDEN', params: {} };
      return null;
    },
    snapshot: () => ({}),
  });
  const support = createSupport({
    db,
    clock,
    log,
    audit,
    uploads: identity.uploads,
    retainUntil: (at) => identity.verification.documentRetainUntil(at),
    staffMembers: async (ids) => {
      if (ids.length === 0) return new Map();
      const wanted = new Set(ids);
      const members = (await access.staff.list()).filter((m) => wanted.has(m.staff_id));
      return new Map(members.map((m) => [m.staff_id, { name: m.name, active: m.status === 'active' }]));
    },
    c2cOrderOfCustomer: async (customerId, orderId) => {
      try {
        await app.c2c.service.order({ customerId, sessionId: '', isDemo: false, token: '' }, orderId);
        return true;
      } catch (error) {
        if (error instanceof Refusal && error.reason === 'NOT_FOUND') return false;
        throw error;
      }
    },
    publish: async (customerId, message) => {
      let uid = uids.get(customerId);
      if (!uid) {
        uid = (await customerIdentities(db, [customerId]))[0]?.uid;
        if (!uid) return;
        uids.set(customerId, uid);
      }
      const channel = `${SUPPORT_CHANNELS.private}${uid}`;
      if (hub.registry.hasSubscribers(channel)) hub.registry.publish(channel, () => message);
    },
    customerUids: async (ids) => new Map((await customerIdentities(db, ids)).map((c) => [c.id, c.uid])),
  });
  if (config.demoContent) await support.seedDemo();
  app.decorate('support', support);
  await app.register(supportRoutes(support), { prefix: '/api/web' });
  await app.register(supportAdminRoutes(support), { prefix: '/api/admin' });
}

/**
 * The seven-day sign-in reward (modules/signin): paid from the marketing budget
 * `marketing_budget_signin` (four-eyes funding in the back office). Its ports: whether the active
 * jurisdiction profile allows promotional incentives, the customer's primary verification, UIDs
 * for the payouts list. Demo content funds the budget once.
 */
export async function wireSignin(core: Core, identity: Identity) {
  const { app, config, db, clock, log, ledger, audit } = core;
  const { jurisdiction, verification } = identity;
  const signin = createSignin({
    db,
    clock,
    log,
    ledger,
    audit,
    promoIncentives: () => jurisdiction.promoIncentives(),
    primaryVerified: async (customerId) => (await verification.tierOf(customerId)).primary === 'approved',
    customerUids: async (ids) => new Map((await customerIdentities(db, ids)).map((c) => [c.id, c.uid])),
  });
  if (config.demoContent) await signin.seedDemo();
  app.decorate('signin', signin);
  await app.register(signinRoutes(signin), { prefix: '/api/web' });
  await app.register(signinAdminRoutes(signin), { prefix: '/api/admin' });
}

/**
 * Invitations and referral income (modules/referral): a share of the fees invitees paid on the real
 * spot books, from `fee_income` to the inviter. Its ports: the profile's maximum depth
 * (jurisdiction), the fees paid after a cursor (spot `feesPaidAfter`), invitations (accounts: the
 * chain of inviters, invitees masked, the code and link), linked accounts (accounts' signed-in
 * devices, withdrawals' payout details), uids. The income job runs every REFERRAL_JOB_INTERVAL_MS.
 */
export async function wireReferral(core: Core, identity: Identity) {
  const { app, config, db, clock, log, secret, ledger, audit } = core;
  const { jurisdiction } = identity;
  // The payee book opens bound cards and wallets to compare them (never returned).
  const payees = createBook({ db, clock, secret });
  const referral = createReferral({
    db,
    clock,
    log,
    ledger,
    audit,
    referralMaxDepth: () => jurisdiction.referralMaxDepth(),
    fees: { markets: (q) => feeMarkets(q), after: (q, input) => feesPaidAfter(q, input) },
    invitations: {
      chain: (q, customerId, depth) => inviterChain(q, customerId, depth),
      codeOf: async (customerId) => {
        const code = await invitationCodeOf(db, customerId);
        return code ? { code, link: `${config.publicUrl}/register?invite=${code}` } : null;
      },
      counts: (customerId, depth) => inviteeCounts(db, customerId, depth),
      page: (input) => inviteesPage(db, input),
    },
    linked: {
      device: (q, a, b) => sharedDevice(q, a, b),
      payout: (q, a, b) => sharedPayoutDetails(q, payees, { a, b }),
    },
    customerUids: async (ids) => new Map((await customerIdentities(db, ids)).map((c) => [c.id, c.uid])),
    customerByUid: (uid) => customerIdByUid(db, uid),
  });
  const job = referral.schedule(config.referralJobIntervalMs);
  app.addHook('onClose', async () => job.stop());
  app.decorate('referral', { service: referral, job });
  await app.register(referralRoutes(referral), { prefix: '/api/web' });
  await app.register(referralAdminRoutes(referral), { prefix: '/api/admin' });
}
