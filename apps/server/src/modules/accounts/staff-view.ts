import type { CustomerProfile } from '@bourse/protocol';
import { sql } from 'kysely';
import type { Db, Tx } from '../../db/database.ts';
import { refuse } from '../../http/refusal.ts';
import * as repo from './repo.ts';

type Row = repo.CustomerRow;

function profile(row: Row, activeSessions: number): CustomerProfile {
  return {
    customer_id: row.id,
    uid: row.uid,
    name: row.name ?? '',
    email: row.email ?? '',
    phone: row.phone ?? '',
    country: row.country,
    is_demo: row.is_demo,
    status: row.status,
    language: row.language,
    created_at: row.created_at.getTime(),
    locked_until: row.locked_until?.getTime() ?? null,
    active_sessions: activeSessions,
  };
}

async function activeSessions(q: Db | Tx, customerIds: string[], now: Date): Promise<Map<string, number>> {
  if (customerIds.length === 0) return new Map();
  const rows = await q
    .selectFrom('accounts_session')
    .select(['customer_id', (eb) => eb.fn.countAll<string>().as('n')])
    .where('customer_id', 'in', customerIds)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .groupBy('customer_id')
    .execute();
  return new Map(rows.map((r) => [r.customer_id, Number(r.n)]));
}

/**
 * What the back office may see and do to customer accounts: search, one customer's profile, and
 * disabling or enabling login. The back office audits each change in the same transaction.
 */
export function createCustomerAdmin(deps: { db: Db }) {
  const { db } = deps;
  return {
    /** By exact uid, or email / phone containing the text (case-insensitive); newest first. */
    async search(text: string, limit: number, now: Date): Promise<CustomerProfile[]> {
      const q = text.trim().toLowerCase();
      if (q === '') return [];
      const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const rows = await db
        .selectFrom('accounts_customer')
        .selectAll()
        .where((eb) =>
          eb.or([
            eb('uid', '=', q),
            eb('id', '=', text.trim()),
            eb(sql<string>`lower(coalesce(email, ''))`, 'like', like),
            eb(sql<string>`coalesce(phone, '')`, 'like', like),
            eb(sql<string>`lower(coalesce(name, ''))`, 'like', like),
          ]),
        )
        .orderBy('created_at', 'desc')
        .limit(limit)
        .execute();
      const sessions = await activeSessions(
        db,
        rows.map((r) => r.id),
        now,
      );
      return rows.map((r) => profile(r, sessions.get(r.id) ?? 0));
    },

    async profile(q: Db | Tx, customerId: string, now: Date): Promise<CustomerProfile | null> {
      const row = await repo.findCustomer(q, { id: customerId });
      if (!row) return null;
      const sessions = await activeSessions(q, [row.id], now);
      return profile(row, sessions.get(row.id) ?? 0);
    },

    /**
     * Disable or enable a customer's login inside the caller's transaction. Disabling ends every
     * session (the app gets code 1000 on its next call). Returns the status before and the sessions ended.
     */
    async setLoginStatus(
      tx: Tx,
      input: { customerId: string; status: 'active' | 'disabled'; at: Date },
    ): Promise<{ before: 'active' | 'disabled'; endedSessions: number }> {
      const row = await repo.findCustomer(tx, { id: input.customerId }, { lock: true });
      if (!row) refuse('NOT_FOUND');
      await repo.updateCustomer(tx, row.id, {
        status: input.status,
        updated_at: input.at,
        ...(input.status === 'active' ? { failed_logins: 0, locked_until: null } : {}),
      });
      const endedSessions =
        input.status === 'disabled'
          ? await repo.revokeSessions(tx, { customerId: row.id, reason: 'logout', at: input.at })
          : 0;
      return { before: row.status, endedSessions };
    },
  };
}

export type CustomerAdmin = ReturnType<typeof createCustomerAdmin>;
