import {
  EmptyBody,
  GetCodeQuery,
  LoginBody,
  RegisterBody,
  SetLanguageBody,
  UpdatePasswordBody,
  WalletLoginBody,
  WalletNonceQuery,
} from '@bourse/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { langOf, ok } from '../../http/envelope.ts';
import { authOf } from '../../http/request.ts';
import type { Accounts, RequestMeta } from './service.ts';
import type { WalletLogin } from './wallet.ts';

function meta(request: FastifyRequest): RequestMeta {
  return { ip: request.ip, userAgent: request.headers['user-agent'] ?? '', lang: langOf(request) };
}

/** The access calls of API.md. Thin: parse, call the service, wrap in the envelope. */
export function accountsRoutes(deps: { accounts: Accounts; wallet: WalletLogin; feedMode: string }) {
  const { accounts, wallet } = deps;
  return async (app: FastifyInstance) => {
    signInRoutes(app, accounts, deps.feedMode);
    profileRoutes(app, accounts);
    walletRoutes(app, wallet);
  };
}

const tags = ['access'];

/** Rules, codes, registering, signing in and out. */
function signInRoutes(app: FastifyInstance, accounts: Accounts, feedMode: string): void {
  app.get(
    '/publicConfig',
    { schema: { tags, summary: 'Public registration and login rules', querystring: EmptyBody } },
    async (request) => ok(request, { ...accounts.publicConfig(), feed_mode: feedMode }),
  );

  app.get(
    '/getCode',
    {
      schema: {
        tags,
        summary: 'Send a 6-digit verification code by email or SMS',
        querystring: GetCodeQuery,
      },
      config: { auth: 'optional', idempotent: true, accessLimited: true },
    },
    async (request) => {
      const q = request.query as GetCodeQuery;
      const data = await accounts.requestCode({
        account: q.account,
        areaCode: q.area_code,
        scene: q.scene,
        auth: request.auth,
        lang: langOf(request),
      });
      return ok(request, data);
    },
  );

  app.post(
    '/userRegister',
    {
      schema: { tags, summary: 'Register by email or phone with a code', body: RegisterBody },
      config: { idempotent: true, accessLimited: true },
    },
    async (request) => ok(request, await accounts.register(request.body as RegisterBody, meta(request))),
  );

  app.post(
    '/userLogin',
    {
      schema: { tags, summary: 'Log in by account name, phone or email', body: LoginBody },
      config: { idempotent: true, accessLimited: true },
    },
    async (request) => ok(request, await accounts.login(request.body as LoginBody, meta(request))),
  );

  app.get(
    '/tempLogin',
    {
      schema: {
        tags,
        summary: 'Create a demo customer with virtual funds and an expiry',
        querystring: EmptyBody,
      },
      config: { idempotent: true, accessLimited: true },
    },
    async (request) => ok(request, await accounts.tempLogin(meta(request))),
  );

  app.post(
    '/userLogout',
    {
      schema: { tags, summary: 'End this session', body: EmptyBody },
      config: { auth: 'required', idempotent: true },
    },
    async (request) => {
      await accounts.logout(authOf(request));
      return ok(request, null);
    },
  );
}

/** The signed-in customer's profile, password and language. */
function profileRoutes(app: FastifyInstance, accounts: Accounts): void {
  app.get(
    '/info',
    {
      schema: { tags, summary: "The customer's profile", querystring: EmptyBody },
      config: { auth: 'required' },
    },
    async (request) => ok(request, await accounts.info(authOf(request))),
  );

  app.post(
    '/updatePassword',
    {
      schema: {
        tags,
        summary: 'Change the password (old_password) or reset it by code (account + code)',
        body: UpdatePasswordBody,
      },
      config: { auth: 'optional', idempotent: true, accessLimited: true },
    },
    async (request) =>
      ok(request, await accounts.updatePassword(request.body as UpdatePasswordBody, request.auth)),
  );

  app.post(
    '/setLanguage',
    {
      schema: { tags, summary: "Set the language of the customer's messages", body: SetLanguageBody },
      config: { auth: 'required', idempotent: true },
    },
    async (request) => {
      await accounts.setLanguage(authOf(request), (request.body as { language: string }).language);
      return ok(request, null);
    },
  );
}

/** Sign-In with Ethereum. */
function walletRoutes(app: FastifyInstance, wallet: WalletLogin): void {
  app.get(
    '/walletNonce',
    {
      schema: {
        tags,
        summary: 'A one-time nonce for Sign-In with Ethereum',
        querystring: WalletNonceQuery,
      },
      config: { accessLimited: true },
    },
    async (request) => {
      const { address } = request.query as { address: string };
      const origin = `${request.protocol}://${request.host}`;
      return ok(request, await wallet.nonce({ address, host: request.host, origin, lang: langOf(request) }));
    },
  );

  app.post(
    '/walletLogin',
    {
      schema: { tags, summary: 'Log in with a signed EIP-4361 message', body: WalletLoginBody },
      config: { idempotent: true, accessLimited: true },
    },
    async (request) => {
      const body = request.body as WalletLoginBody;
      return ok(
        request,
        await wallet.login({
          message: body.message,
          signature: body.signature,
          host: request.host,
          meta: meta(request),
        }),
      );
    },
  );
}
