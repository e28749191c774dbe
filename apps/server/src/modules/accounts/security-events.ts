import type { Db, Tx } from '../../db/database.ts';
import { coalesce, POOL_LANES } from '../../lib/coalesce.ts';
import { newId } from '../../lib/ids.ts';
import * as repo from './repo.ts';

/**
 * A customer's own audit trail (`accounts_security_event`) for changes other modules make to the
 * customer's security (API keys): written in the caller's transaction, with the change.
 */
export async function recordSecurityEvent(
  q: Db | Tx,
  input: { customerId: string; kind: string; detail: string; ip: string; at: Date },
): Promise<void> {
  await repo.insertSecurityEvent(q, {
    id: newId('sev', input.at.getTime()),
    customer_id: input.customerId,
    kind: input.kind,
    detail: input.detail.slice(0, 500),
    ip: input.ip.slice(0, 64),
    created_at: input.at,
  });
}

/**
 * Whether a customer may use the platform now (not disabled by staff): API keys of a disabled one
 * stop. Every signed bot call asks, so calls arriving together are answered by one query per turn of
 * the event loop (a few at once over the pool). Nothing is cached: a customer disabled now is
 * refused from the next call.
 */
export function customerActiveLookup(db: Db): (customerId: string) => Promise<boolean> {
  return coalesce(
    async (ids: string[]) => {
      const active = await repo.activeCustomerIds(db, [...new Set(ids)]);
      return ids.map((id) => active.has(id));
    },
    { lanes: POOL_LANES },
  );
}
