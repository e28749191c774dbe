import type { IdempotencyKey } from './idempotency.ts';

/** What the auth hook attaches to a request once the token is checked. */
export type AuthContext = Readonly<{
  customerId: string;
  sessionId: string;
  isDemo: boolean;
  /** The raw token stays in memory only. */
  token: string;
}>;

export type SessionResolver = {
  /** Resolves a bearer token or throws a Refusal (LOGIN_REQUIRED, SESSION_EXPIRED, …). */
  resolve(token: string): Promise<AuthContext>;
};

export type RouteAccess = {
  /** `required`: a valid customer session; `optional`: attach it when present; default `none`. */
  auth?: 'required' | 'optional' | 'none';
  /** State-changing: a (principal, rtoken) pair gets its first answer for 24 hours. */
  idempotent?: boolean;
  /** Counted against the access-call limits per client address and per account. */
  accessLimited?: boolean;
};

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
    idempotencyKey: { key: IdempotencyKey; claimId: string; sealKey: string } | null;
  }
  interface FastifyContextConfig extends RouteAccess {}
}
