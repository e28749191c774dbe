import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ok } from './envelope.ts';

/**
 * Customer calls declared as a table (C2C, support): each its method, path, summary, schema, whether
 * a session is required, and a handler whose answer goes into the envelope. Every POST is idempotent
 * by rtoken (its writing transactions commit the claim with the effect).
 */
export type WebRoute = {
  method: 'GET' | 'POST';
  url: string;
  summary: string;
  schema: unknown;
  auth: 'required' | 'optional';
  handler: (request: FastifyRequest) => Promise<unknown> | unknown;
};

export const bodyOf = <T>(r: FastifyRequest) => r.body as T;
export const queryOf = <T>(r: FastifyRequest) => r.query as T;

/** The table as a Fastify plugin under `tags`. */
export function webRouteTable(tags: string[], routes: readonly WebRoute[]) {
  return async (app: FastifyInstance) => {
    for (const route of routes) {
      app.route({
        method: route.method,
        url: route.url,
        schema: { tags, summary: route.summary, ...(route.schema as object) },
        config: { auth: route.auth, ...(route.method === 'POST' ? { idempotent: true } : {}) },
        handler: async (request) => ok(request, await route.handler(request)),
      });
    }
  };
}
