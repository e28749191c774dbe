import { EmptyBody, GetAssetQuery, RecordsQuery, TransferBody } from '@bourse/protocol';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/database.ts';
import { langOf, ok } from '../../http/envelope.ts';
import { authOf } from '../../http/request.ts';
import { sendCsv } from '../../lib/csv.ts';
import { type Assets, bookOf } from './service.ts';

/** Asset calls (docs/api.md "Asset calls"): the customer's own balances, transfers and records. */
export function assetsRoutes(deps: { db: Db; assets: Assets }) {
  const { assets, db } = deps;
  return async (app: FastifyInstance) => {
    const tags = ['assets'];

    app.get(
      '/getCurrencyAll',
      {
        schema: {
          tags,
          summary: 'Every currency the platform holds, with deposit networks',
          querystring: EmptyBody,
        },
      },
      async (request) => ok(request, await assets.currencies()),
    );

    app.get(
      '/getAsset2',
      {
        schema: {
          tags,
          summary: 'Balances per account type with values in USDT from reference prices',
          querystring: GetAssetQuery,
        },
        config: { auth: 'required' },
      },
      async (request) => {
        const q = request.query as GetAssetQuery;
        return ok(request, await assets.overview(authOf(request), q.type));
      },
    );

    app.post(
      '/transferAsset',
      {
        schema: { tags, summary: "Move funds between the customer's own account types", body: TransferBody },
        config: { auth: 'required', idempotent: true },
      },
      async (request) => ok(request, await assets.transfer(authOf(request), request.body as TransferBody)),
    );

    app.get(
      '/getRecords',
      {
        schema: {
          tags,
          summary: 'Records of one kind, filtered and paged, newest first',
          querystring: RecordsQuery,
        },
        config: { auth: 'required' },
      },
      async (request) => {
        const auth = authOf(request);
        return ok(
          request,
          await assets.records.page(db, {
            customerId: auth.customerId,
            book: bookOf(auth),
            query: request.query as RecordsQuery,
          }),
        );
      },
    );

    app.get(
      '/exportRecords',
      {
        schema: {
          tags,
          summary: 'The same records as CSV (text/csv, header row in the request language)',
          querystring: RecordsQuery,
        },
        config: { auth: 'required' },
      },
      async (request, reply) => {
        const auth = authOf(request);
        const query = request.query as RecordsQuery;
        const csv = await assets.records.csv(db, {
          customerId: auth.customerId,
          book: bookOf(auth),
          query,
          lang: langOf(request),
        });
        return sendCsv(reply, `records-${query.kind}.csv`, csv);
      },
    );
  };
}
