import type { Insertable, Selectable } from 'kysely';
import type { Db, Tx } from '../../db/database.ts';
import type { DeleteReason, UploadsTables } from './tables.ts';

/** The only SQL on uploads_file. */
type Q = Db | Tx;
export type FileRow = Selectable<UploadsTables['uploads_file']>;

/** What other modules see of a file: its facts, never its bytes. */
export const FACT_COLUMNS = [
  'id',
  'customer_id',
  'purpose',
  'mime',
  'width',
  'height',
  'size',
  'sha256',
  'source_sha256',
  'created_at',
  'attached_at',
  'attached_ref',
  'retain_until',
  'deleted_at',
] as const;
export type FileFacts = Pick<FileRow, (typeof FACT_COLUMNS)[number]>;

export async function insertFile(q: Q, row: Insertable<UploadsTables['uploads_file']>): Promise<void> {
  await q.insertInto('uploads_file').values(row).execute();
}

export async function findFacts(q: Q, id: string): Promise<FileFacts | undefined> {
  return q.selectFrom('uploads_file').select(FACT_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function factsOf(q: Q, ids: readonly string[]): Promise<FileFacts[]> {
  if (ids.length === 0) return [];
  return q
    .selectFrom('uploads_file')
    .select(FACT_COLUMNS)
    .where('id', 'in', [...ids])
    .execute();
}

/** The sealed bytes of a file that is not deleted. */
export async function findSealed(q: Q, id: string) {
  return q
    .selectFrom('uploads_file')
    .select(['id', 'customer_id', 'mime', 'key_ref', 'iv', 'tag', 'ciphertext'])
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/**
 * Claims a file for a module: only the owner's, with the purpose asked, never claimed and not
 * deleted — in the caller's transaction, so of two racing claims one wins.
 */
export async function claimFile(
  tx: Tx,
  input: { fileId: string; customerId: string; purpose: string; ref: string; retainUntil: Date; now: Date },
): Promise<FileFacts | undefined> {
  return tx
    .updateTable('uploads_file')
    .set({ attached_at: input.now, attached_ref: input.ref, retain_until: input.retainUntil })
    .where('id', '=', input.fileId)
    .where('customer_id', '=', input.customerId)
    .where('purpose', '=', input.purpose as FileRow['purpose'])
    .where('attached_at', 'is', null)
    .where('deleted_at', 'is', null)
    .returning(FACT_COLUMNS)
    .executeTakeFirst();
}

/** Files of other customers (than each file's owner) with the same image, stored or as uploaded, as any of `fileIds`. */
export async function sameImages(q: Q, fileIds: readonly string[]) {
  if (fileIds.length === 0) return [];
  return q
    .selectFrom('uploads_file as mine')
    .innerJoin('uploads_file as other', (join) =>
      // Stored or as uploaded, either way round: a served copy uploaded again still matches.
      join.on((eb) =>
        eb.or([
          eb('other.sha256', '=', eb.ref('mine.sha256')),
          eb('other.source_sha256', '=', eb.ref('mine.source_sha256')),
          eb('other.sha256', '=', eb.ref('mine.source_sha256')),
          eb('other.source_sha256', '=', eb.ref('mine.sha256')),
        ]),
      ),
    )
    .select(['mine.id as file_id', 'other.customer_id as other_customer_id'])
    .where('mine.id', 'in', [...fileIds])
    .whereRef('other.customer_id', '!=', 'mine.customer_id')
    .distinct()
    .execute();
}

/**
 * One batch of files due for deletion at `now`, locked (others skip them): never attached and older
 * than `unattachedBefore`, or past their `retain_until`.
 */
export async function lockDue(tx: Tx, now: Date, unattachedBefore: Date, limit: number) {
  return tx
    .selectFrom('uploads_file')
    .select(['id', 'attached_at'])
    .where('deleted_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb.and([eb('attached_at', 'is', null), eb('created_at', '<', unattachedBefore)]),
        eb('retain_until', '<=', now),
      ]),
    )
    .orderBy('created_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

/** Wipes the ciphertext (and its iv and tag) and marks the row deleted. */
export async function wipe(tx: Tx, ids: readonly string[], reason: DeleteReason, now: Date): Promise<void> {
  if (ids.length === 0) return;
  await tx
    .updateTable('uploads_file')
    .set({ iv: null, tag: null, ciphertext: null, deleted_at: now, delete_reason: reason })
    .where('id', 'in', [...ids])
    .where('deleted_at', 'is', null)
    .execute();
}
