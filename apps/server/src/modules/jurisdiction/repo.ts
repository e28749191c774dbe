import type { Db, Tx } from '../../db/database.ts';
import type { JurisdictionTables } from './tables.ts';

/** The only SQL on the jurisdiction_setting table (one row, `id = 1`). */
type Q = Db | Tx;
export type SettingRow = JurisdictionTables['jurisdiction_setting'];

/** The one settings row; `lock` holds it for the caller's transaction. */
export async function findSetting(q: Q, options: { lock?: boolean } = {}) {
  let query = q.selectFrom('jurisdiction_setting').selectAll().where('id', '=', 1);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirstOrThrow();
}

export async function updateSetting(q: Q, patch: Partial<Omit<SettingRow, 'id'>>): Promise<void> {
  await q.updateTable('jurisdiction_setting').set(patch).where('id', '=', 1).execute();
}
