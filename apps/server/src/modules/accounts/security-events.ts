import type { Db, Tx } from '../../db/database.ts';
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

/** Whether a customer may use the platform now (not disabled by staff): API keys of a disabled one stop. */
export async function customerActive(q: Db | Tx, customerId: string): Promise<boolean> {
  return (await repo.findCustomer(q, { id: customerId }))?.status === 'active';
}
