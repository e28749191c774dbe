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
import { sendReason } from './http/envelope.ts';
import type { IdempotencyStore } from './http/idempotency.ts';
import { clientErrorHandler, INPUT_LIMITS } from './http/input.ts';
import type { Clock } from './lib/clock.ts';
import { newId } from './lib/ids.ts';
import { backOfficeRoutes, staffRoutes } from './modules/staff/index.ts';
import {
  createCore,
  wireAccess,
  wireBots,
  wireC2c,
  wireDerivatives,
  wireEarn,
  wireFunds,
  wireIdentity,
  wireInbox,
  wireLaunchpad,
  wireLoans,
  wireMarket,
  wireMoney,
  wireReferral,
  wireSignin,
  wireSpot,
  wireSupport,
} from './wiring.ts';

export type AppDeps = {
  config: Config;
  db: Db;
  secret: string;
  /** The one clock every decision reads (main.ts: the wall clock; tests: a manual one). */
  clock: Clock;
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
  const clock = deps.clock;
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

  const core = await createCore({
    app,
    config,
    db,
    clock,
    log: app.log as unknown as Logger,
    secret: deps.secret,
  });
  const access = await wireAccess(core, deps.idempotency);
  const prices = await wireMarket(core, access);
  const identity = await wireIdentity(core, access);
  await wireMoney(core, access, prices.market, identity);
  await wireSpot(core, access, prices);
  await wireDerivatives(core, access, prices.market, identity.jurisdiction);
  await wireEarn(core, access, identity);
  await wireLaunchpad(core, access, identity);
  await wireLoans(core, access, identity);
  await wireC2c(core, access, identity, prices);
  await wireSupport(core, access, identity, prices);
  await wireFunds(core, access);
  await wireBots(core, access);
  await wireInbox(core, access, prices);
  await wireReferral(core, identity);
  await wireSignin(core, identity);
  access.backOffice.useMarket(prices.market);
  await app.register(staffRoutes({ staff: access.staff, audit: core.audit }), { prefix: '/api/admin' });
  await app.register(backOfficeRoutes({ backOffice: access.backOffice, staff: access.staff }), {
    prefix: '/api/admin',
  });

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
