import {
  AdminOptionOrdersQuery,
  AdminOptionSettingsBody,
  BuyOptionBody,
  CommonFields,
  OptionExportQuery,
  OptionOrderQuery,
  OptionOrdersQuery,
  OptionsQuery,
} from '@bourse/protocol';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { langOf, ok } from '../../http/envelope.ts';
import { authOf, staffOf } from '../../http/request.ts';
import { sendCsv } from '../../lib/csv.ts';
import { optionRecordsCsv } from './export.ts';
import type { Options } from './service.ts';

/** Customer calls under /api/web (docs/api.md, "Contracts and options"). */
export function optionsRoutes(options: Options) {
  return async (app: FastifyInstance) => {
    const tags = ['options'];
    app.get(
      '/getOptions',
      {
        schema: {
          tags,
          summary: 'Instruments offering up/down options and their rules',
          querystring: OptionsQuery,
        },
        config: { auth: 'optional' },
      },
      async (request) =>
        ok(request, { items: await options.instruments((request.query as OptionsQuery).symbol) }),
    );
    app.post(
      '/buyOption',
      {
        schema: {
          tags,
          summary: 'Buy an up/down option (the stake is held until expiry)',
          body: BuyOptionBody,
        },
        config: { auth: 'required', idempotent: true },
      },
      async (request) => ok(request, await options.buy(authOf(request), request.body as BuyOptionBody)),
    );
    app.get(
      '/getOptionOrders',
      {
        schema: { tags, summary: 'My open or settled options, newest first', querystring: OptionOrdersQuery },
        config: { auth: 'required' },
      },
      async (request) =>
        ok(request, await options.orders(authOf(request), request.query as OptionOrdersQuery)),
    );
    app.get(
      '/exportOptionRecords',
      {
        schema: {
          tags,
          summary: 'My options with the same filters as CSV, header row in the request language',
          querystring: OptionExportQuery,
        },
        config: { auth: 'required' },
      },
      async (request, reply) => {
        const q = request.query as OptionExportQuery;
        return sendCsv(
          reply,
          'options.csv',
          await optionRecordsCsv(options, authOf(request), q, langOf(request)),
        );
      },
    );
    app.get(
      '/getOptionOrder',
      {
        schema: { tags, summary: 'One of my options', querystring: OptionOrderQuery },
        config: { auth: 'required' },
      },
      async (request) =>
        ok(request, await options.order(authOf(request), (request.query as OptionOrderQuery).order_id)),
    );
  };
}

const ExposureQuery = Type.Object(
  { ...CommonFields, book: Type.Optional(Type.Union([Type.Literal('real'), Type.Literal('demo')])) },
  { additionalProperties: false },
);
const EmptyQuery = Type.Object({ ...CommonFields }, { additionalProperties: false });

/**
 * Back-office calls under /api/admin: settings (markets.write, audited) and read-only views
 * (risk.read). Deliberately no call that writes an order, a price or a result.
 */
export function optionsAdminRoutes(options: Options) {
  return async (app: FastifyInstance) => {
    const tags = ['admin'];
    app.get(
      '/options/settings',
      {
        schema: { tags, summary: 'Option settings per instrument', querystring: EmptyQuery },
        config: { permission: 'risk.read' },
      },
      async (request) => ok(request, await options.settings()),
    );
    app.post(
      '/options/settings',
      {
        schema: {
          tags,
          summary: 'Change the option settings of an instrument (audited)',
          body: AdminOptionSettingsBody,
        },
        config: { permission: 'markets.write' },
      },
      async (request) =>
        ok(request, await options.updateSettings(staffOf(request), request.body as AdminOptionSettingsBody)),
    );
    app.get(
      '/options/orders',
      {
        schema: { tags, summary: 'Option orders of every customer', querystring: AdminOptionOrdersQuery },
        config: { permission: 'risk.read' },
      },
      async (request) => ok(request, await options.adminOrders(request.query as AdminOptionOrdersQuery)),
    );
    app.get(
      '/options/exposure',
      {
        schema: {
          tags,
          summary: 'Open option stakes per instrument and direction',
          querystring: ExposureQuery,
        },
        config: { permission: 'risk.read' },
      },
      async (request) =>
        ok(request, await options.exposure((request.query as { book?: 'real' | 'demo' }).book ?? 'real')),
    );
  };
}
