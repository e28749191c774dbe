import { GetProofLeafQuery, GetProofRootsQuery } from '@bourse/protocol';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../http/envelope.ts';
import { authOf } from '../../http/request.ts';
import type { Proof } from './service.ts';

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
        return ok(request, {
          leaves: await proof.customerLeaves(authOf(request).customerId, query.currency),
        });
      },
    );
  };
}
