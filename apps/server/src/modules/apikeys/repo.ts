import type { Db, Tx } from '../../db/database.ts';
import type { ApikeysTables } from './tables.ts';

type Q = Db | Tx;
export type ApiKeyRow = ApikeysTables['apikeys_key'];

export async function insertKey(q: Q, row: ApiKeyRow): Promise<void> {
  await q.insertInto('apikeys_key').values(row).execute();
}

export async function keysOf(q: Q, customerId: string): Promise<ApiKeyRow[]> {
  return q
    .selectFrom('apikeys_key')
    .selectAll()
    .where('customer_id', '=', customerId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function keyById(q: Q, id: string, options: { lock?: boolean } = {}): Promise<ApiKeyRow | null> {
  let query = q.selectFrom('apikeys_key').selectAll().where('id', '=', id);
  if (options.lock) query = query.forUpdate();
  return (await query.executeTakeFirst()) ?? null;
}

/** The keys named by several `X-MBX-APIKEY` values at once (requests arriving together). */
export async function keysByApiKeys(q: Q, apiKeys: readonly string[]): Promise<ApiKeyRow[]> {
  if (apiKeys.length === 0) return [];
  return q.selectFrom('apikeys_key').selectAll().where('api_key', 'in', apiKeys).execute();
}

/** Active keys of a customer (not revoked, not expired at `now`). */
export async function activeCount(q: Q, customerId: string, now: Date): Promise<number> {
  const r = await q
    .selectFrom('apikeys_key')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('customer_id', '=', customerId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function markRevoked(
  q: Q,
  id: string,
  set: Pick<ApiKeyRow, 'revoked_at' | 'revoked_by' | 'revoked_staff_id' | 'revoke_reason'>,
): Promise<boolean> {
  const r = await q
    .updateTable('apikeys_key')
    .set(set)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** A key's last use is written at most this often (a read-mostly row). */
export const TOUCH_EVERY_MS = 60_000;

/** Last use, written at most once a minute per key (a read-mostly row). */
export async function touch(q: Q, id: string, now: Date): Promise<void> {
  await q
    .updateTable('apikeys_key')
    .set({ last_used_at: now })
    .where('id', '=', id)
    .where((eb) =>
      eb.or([
        eb('last_used_at', 'is', null),
        eb('last_used_at', '<', new Date(now.getTime() - TOUCH_EVERY_MS)),
      ]),
    )
    .execute();
}
