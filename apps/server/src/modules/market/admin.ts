import {
  AdminTradingHoursBody,
  type AdminTradingHoursData,
  AdminTradingHoursQuery,
  MARKET_LIMITS,
} from '@bourse/protocol';
import type { FastifyInstance } from 'fastify';
import { type Db, inTransaction } from '../../db/database.ts';
import { ok } from '../../http/envelope.ts';
import { refuse } from '../../http/refusal.ts';
import { staffOf } from '../../http/request.ts';
import type { AuditLog, StaffContext } from '../../http/staff.ts';
import type { Clock } from '../../lib/clock.ts';
import { findInstrumentsBySymbol, updateInstrument } from './repo.ts';
import { parseSchedule } from './schedule.ts';
import type { Market } from './service.ts';

/**
 * Trading hours in the back office: list them, and replace one instrument's schedule (audited in
 * the transaction that writes it). The change is live at once in this process — the catalogue is
 * reloaded, so contracts, options and the feed see the new hours on their next look — and in
 * other processes within their catalogue check (MARKET_JOBS.catalogueCheckMs).
 */
export function createTradingHours(deps: { db: Db; clock: Clock; audit: AuditLog; market: Market }) {
  const { db, clock, audit, market } = deps;

  function hoursData(symbol: string): AdminTradingHoursData {
    const i = market.instrument(symbol);
    return {
      symbol: i.symbol,
      name: i.name,
      class: i.assetClass,
      trading_hours: i.schedule.text,
      status: i.status,
      state: market.ticker(symbol).state,
    };
  }

  return {
    list(query: AdminTradingHoursQuery): { items: AdminTradingHoursData[] } {
      const page = market.instruments({
        search: query.search,
        page_size: String(MARKET_LIMITS.instrumentsPageSizeMax),
      });
      return { items: page.items.map((i) => hoursData(i.symbol)) };
    },

    async set(staff: StaffContext, body: AdminTradingHoursBody): Promise<AdminTradingHoursData> {
      const parsed = parseSchedule(body.hours);
      if (!parsed.ok) refuse('TRADING_HOURS_INVALID', { hours: body.hours.slice(0, 200) });
      const text = parsed.schedule.text;
      await inTransaction(db, async (tx) => {
        const [row] = await findInstrumentsBySymbol(tx, [body.symbol]);
        if (!row) refuse('INSTRUMENT_UNKNOWN', { symbol: body.symbol });
        if (row.trading_hours === text) return;
        await updateInstrument(tx, row.id, { trading_hours: text, updated_at: clock.now() });
        await audit.record(tx, {
          actorId: staff.staffId,
          action: 'market.hours.update',
          targetType: 'instrument',
          targetId: row.symbol,
          before: { trading_hours: row.trading_hours },
          after: { trading_hours: text },
          reason: body.reason,
        });
      });
      await market.reloadCatalogue();
      // Publish the new open/closed state now rather than at the next sweep.
      market.sweep();
      return hoursData(body.symbol);
    },
  };
}

export type TradingHours = ReturnType<typeof createTradingHours>;

/** `GET/POST admin/market/hours` (permission markets.write; every change audited). */
export function marketAdminRoutes(hours: TradingHours) {
  return async (app: FastifyInstance) => {
    const tags = ['admin'];
    const config = { permission: 'markets.write' as const };
    app.get(
      '/market/hours',
      {
        schema: { tags, summary: 'Trading hours of the catalogue', querystring: AdminTradingHoursQuery },
        config,
      },
      async (request) => ok(request, hours.list(request.query as AdminTradingHoursQuery)),
    );
    app.post(
      '/market/hours',
      {
        schema: {
          tags,
          summary: "Replace an instrument's trading hours (audited; live at once)",
          body: AdminTradingHoursBody,
        },
        config,
      },
      async (request) =>
        ok(request, await hours.set(staffOf(request), request.body as AdminTradingHoursBody)),
    );
  };
}
