import { GetInstrumentsQuery, GetKlineQuery, GetTickersQuery } from '@bourse/protocol';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../http/envelope.ts';
import type { Market } from './service.ts';

/** The market calls (docs/api.md). Public: prices are shown before login. */
export function marketRoutes(market: Market) {
  return async (app: FastifyInstance) => {
    const tags = ['market'];

    app.get(
      '/getInstruments',
      {
        schema: {
          tags,
          summary: 'The instrument catalogue, by class or search, paged',
          querystring: GetInstrumentsQuery,
        },
      },
      async (request) => ok(request, market.instruments(request.query as GetInstrumentsQuery)),
    );

    app.get(
      '/getTickers',
      {
        schema: {
          tags,
          summary: 'Reference prices and 24 h statistics: filter by class, search, sort, page',
          querystring: GetTickersQuery,
        },
      },
      async (request) => ok(request, market.tickers(request.query as GetTickersQuery)),
    );

    app.get(
      '/getKline',
      {
        schema: {
          tags,
          summary: 'Candles of one instrument and interval, newest last (at most 1000)',
          querystring: GetKlineQuery,
        },
      },
      async (request) => ok(request, await market.kline(request.query as GetKlineQuery)),
    );
  };
}
