import {
  type DocumentLinkData,
  UPLOAD_LIMITS,
  UPLOAD_PURPOSES,
  type UploadDocumentData,
  type UploadPurpose,
} from '@bourse/protocol';
import type { Logger } from 'pino';
import { type Db, inTransaction, type Tx } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { refuse } from '../../http/refusal.ts';
import type { AuditLog } from '../../http/staff.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import {
  type DocumentCipher,
  linkSignature,
  linkSignatureOk,
  parseViewer,
  type Viewer,
  viewerText,
} from './cipher.ts';
import { cleanImage } from './image.ts';
import * as repo from './repo.ts';

/**
 * The upload pipeline (README.md): checks and re-encodes an image (image.ts), seals and stores it,
 * hands out short-lived signed links to its owner and to staff (each staff link audited), serves
 * a link's bytes, lets another module claim a file (`attach`), and deletes what is due.
 */

export type UploadsDeps = {
  db: Db;
  clock: Clock;
  log: Logger;
  /** The server secret: signs the links. */
  secret: string;
  cipher: DocumentCipher;
  audit: AuditLog;
};

export type { FileFacts } from './repo.ts';

const HOUR_MS = 3_600_000;
const SWEEP_BATCH = 200;

export type AttachInput = {
  fileId: string;
  customerId: string;
  purpose: UploadPurpose;
  /** What claims it, e.g. `verification:<submission>:<slot>`. */
  ref: string;
  retainUntil: Date;
};

function isPurpose(value: string): value is UploadPurpose {
  return (UPLOAD_PURPOSES as readonly string[]).includes(value);
}

export function createUploads(deps: UploadsDeps) {
  const { db, clock, cipher, secret } = deps;

  function link(fileId: string, mime: DocumentLinkData['mime'], viewer: Viewer): DocumentLinkData {
    const expiresAt = clock.now().getTime() + UPLOAD_LIMITS.linkSeconds * 1000;
    const by = viewerText(viewer);
    const sig = linkSignature(secret, fileId, expiresAt, by);
    const query = new URLSearchParams({ exp: String(expiresAt), by, sig });
    return { file_id: fileId, url: `/api/files/${fileId}?${query.toString()}`, expires_at: expiresAt, mime };
  }

  /** Staff links to files, each written to the audit log (`document.view`) in one transaction. */
  async function staffLinks(
    staffId: string,
    fileIds: readonly string[],
    context: { about: string; purposes?: readonly string[] },
  ): Promise<Map<string, DocumentLinkData>> {
    const out = new Map<string, DocumentLinkData>();
    await inTransaction(db, async (tx) => {
      const files = await repo.factsOf(tx, fileIds);
      for (const f of files) {
        if (f.deleted_at) continue;
        // A staff permission covers the documents of its own purpose only (verification staff do
        // not open remittance proofs): another purpose is answered like an unknown file.
        if (context.purposes && !context.purposes.includes(f.purpose)) continue;
        const issued = link(f.id, f.mime, { kind: 'staff', id: staffId });
        await deps.audit.record(tx, {
          actorId: staffId,
          action: 'document.view',
          targetType: 'upload',
          targetId: f.id,
          after: {
            customer_id: f.customer_id,
            purpose: f.purpose,
            attached_ref: f.attached_ref,
            expires_at: issued.expires_at,
          },
          reason: context.about,
        });
        out.set(f.id, issued);
      }
    });
    return out;
  }

  return {
    /** `POST web/uploadDocument`: the checked, re-encoded, sealed image; its facts. */
    async upload(
      auth: AuthContext,
      input: { purpose: string; bytes: Buffer | null },
    ): Promise<UploadDocumentData> {
      if (auth.isDemo) refuse('REAL_ACCOUNT_REQUIRED');
      if (!isPurpose(input.purpose))
        refuse('UPLOAD_PURPOSE_INVALID', { purposes: UPLOAD_PURPOSES.join(', ') });
      const image = await cleanImage(input.bytes);
      const now = clock.now();
      const id = newId('upl', now.getTime());
      const sealed = cipher.sealBytes(id, image.bytes);
      await inTransaction(db, (tx) =>
        repo.insertFile(tx, {
          id,
          customer_id: auth.customerId,
          purpose: input.purpose as UploadPurpose,
          mime: image.mime,
          width: image.width,
          height: image.height,
          size: image.bytes.length,
          sha256: image.sha256,
          source_sha256: image.sourceSha256,
          key_ref: cipher.keyRef,
          ...sealed,
          created_at: now,
          attached_at: null,
          attached_ref: null,
          retain_until: null,
          deleted_at: null,
          delete_reason: null,
        }),
      );
      return {
        file_id: id,
        purpose: input.purpose as UploadPurpose,
        mime: image.mime,
        width: image.width,
        height: image.height,
        size: image.bytes.length,
        sha256: image.sha256,
        created_at: now.getTime(),
      };
    },

    /** `GET web/documentLink`: the owner's own, undeleted file only; anything else is NOT_FOUND. */
    async customerLink(auth: AuthContext, fileId: string): Promise<DocumentLinkData> {
      const f = await repo.findFacts(db, fileId);
      if (!f || f.customer_id !== auth.customerId || f.deleted_at) refuse('NOT_FOUND');
      return link(f.id, f.mime, { kind: 'customer', id: auth.customerId });
    },

    /** `GET admin/documents/link`: any undeleted file, audited as a staff view. */
    /** A link for staff holding `verification.read`: identity documents only. */
    async staffLink(staffId: string, fileId: string): Promise<DocumentLinkData> {
      const links = await staffLinks(staffId, [fileId], {
        about: 'document link',
        purposes: ['verification'],
      });
      return links.get(fileId) ?? refuse('NOT_FOUND');
    },

    staffLinks,

    /**
     * The port for a module whose parties share an attached file (a C2C order's proof, evidence and
     * chat attachments): a link for `viewerId` to an undeleted file attached under `refPrefix`. The
     * module checks the viewer is a party before it asks; anything else is NOT_FOUND.
     */
    async partyLink(viewerId: string, fileId: string, refPrefix: string): Promise<DocumentLinkData> {
      const f = await repo.findFacts(db, fileId);
      if (!f || f.deleted_at || !f.attached_ref?.startsWith(refPrefix)) refuse('NOT_FOUND');
      return link(f.id, f.mime, { kind: 'party', id: viewerId });
    },

    /** `GET /api/files/<id>`: the decrypted bytes of a valid, unexpired link's file. */
    async serve(fileId: string, query: { exp: string; by: string; sig: string }) {
      const expiresAt = Number(query.exp);
      const viewer = parseViewer(query.by);
      if (!viewer || !linkSignatureOk(secret, fileId, expiresAt, query.by, query.sig))
        refuse('FILE_LINK_INVALID');
      if (clock.now().getTime() >= expiresAt) refuse('FILE_LINK_EXPIRED');
      const row = await repo.findSealed(db, fileId);
      if (!row?.iv || !row.tag || !row.ciphertext) refuse('NOT_FOUND');
      if (viewer.kind === 'customer' && row.customer_id !== viewer.id) refuse('FILE_LINK_INVALID');
      if (row.key_ref !== cipher.keyRef) {
        throw new Error(`document ${fileId} was sealed with another DOCUMENT_KEY (${row.key_ref})`);
      }
      const bytes = cipher.openBytes(fileId, { iv: row.iv, tag: row.tag, ciphertext: row.ciphertext });
      return { mime: row.mime, bytes };
    },

    /**
     * The port for other modules: claims an owned, unattached, undeleted file of this purpose in the
     * caller's transaction and sets how long it is kept; null when any of that does not hold.
     */
    async attach(tx: Tx, input: AttachInput): Promise<repo.FileFacts | null> {
      const claimed = await repo.claimFile(tx, { ...input, now: clock.now() });
      return claimed ?? null;
    },

    /** Facts (never bytes) of files, by id. */
    async facts(q: Db | Tx, fileIds: readonly string[]): Promise<Map<string, repo.FileFacts>> {
      return new Map((await repo.factsOf(q, fileIds)).map((f) => [f.id, f]));
    },

    /** For each of `fileIds`, the other customers (than its owner) who uploaded the same image. */
    async sameImageOwners(q: Db | Tx, fileIds: readonly string[]) {
      const out = new Map<string, string[]>();
      for (const r of await repo.sameImages(q, fileIds)) {
        out.set(r.file_id, [...(out.get(r.file_id) ?? []), r.other_customer_id]);
      }
      return out;
    },

    /**
     * The retention job's run: deletes (wipes the bytes of) every file never attached for 24 hours
     * and every file past its `retain_until`, a batch per transaction — a crash loses at most the
     * batch in progress, which the next run takes again. Returns how many were deleted.
     */
    async sweep(): Promise<number> {
      let total = 0;
      for (;;) {
        const now = clock.now();
        const unattachedBefore = new Date(now.getTime() - UPLOAD_LIMITS.unattachedHours * HOUR_MS);
        const n = await inTransaction(db, async (tx) => {
          const due = await repo.lockDue(tx, now, unattachedBefore, SWEEP_BATCH);
          const never = due.filter((f) => f.attached_at === null).map((f) => f.id);
          const kept = due.filter((f) => f.attached_at !== null).map((f) => f.id);
          await repo.wipe(tx, never, 'unattached', now);
          await repo.wipe(tx, kept, 'retention', now);
          return due.length;
        });
        total += n;
        if (n < SWEEP_BATCH) break;
      }
      if (total > 0) deps.log.info({ deleted: total }, 'documents deleted by the retention job');
      return total;
    },
  };
}

export type Uploads = ReturnType<typeof createUploads>;
