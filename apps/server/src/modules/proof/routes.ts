import { GetProofLeafQuery, GetProofRootsQuery } from '@bourse/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthContext } from '../../http/context.ts';
import { ok } from '../../http/envelope.ts';
import type { Proof } from './service.ts';

function customerOf(request: FastifyRequest): AuthContext['customerId'] {
  if (!request.auth) throw new Error('route declared auth: required but no session was attached');
  return request.auth.customerId;
}

/** Proof-of-liabilities calls (docs/api.md): roots are public, a leaf only to its own customer. */
export function proofRoutes(proof: Proof) {
  return async (app: FastifyInstance) => {
    const tags = ['proof'];

    app.get(
      '/getProofRoots',
      {
        schema: {
          tags,
          summary: 'The newest published Merkle sum tree root of every currency (public)',
          querystring: GetProofRootsQuery,
        },
      },
      async (request) => ok(request, { roots: await proof.latestRoots() }),
    );

    app.get(
      '/getProofLeaf',
      {
        schema: {
          tags,
          summary: "The customer's own leaf and path in the newest tree of each currency (or of `currency`)",
          querystring: GetProofLeafQuery,
        },
        config: { auth: 'required' },
      },
      async (request) => {
        const query = request.query as GetProofLeafQuery;
        return ok(request, { leaves: await proof.customerLeaves(customerOf(request), query.currency) });
      },
    );
  };
}
