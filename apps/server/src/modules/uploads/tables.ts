import type { UploadMimeType, UploadPurpose } from '@bourse/protocol';

export type DeleteReason = 'unattached' | 'retention';

/** Kysely types of the uploads tables (migrations.ts). */
export type UploadsTables = {
  /**
   * One uploaded document: the re-encoded image sealed with AES-256-GCM (`iv`, `tag`, `ciphertext`;
   * the file id is the additional data, so a ciphertext moved to another row does not open), its
   * facts in the clear, who owns it, what claimed it and until when it is kept. A deleted file keeps
   * its row (facts and hashes, for the audit trail and the duplicate-image flag) without the bytes.
   */
  uploads_file: {
    id: string;
    customer_id: string;
    purpose: UploadPurpose;
    mime: UploadMimeType;
    width: number;
    height: number;
    /** Bytes of the stored (re-encoded) image. */
    size: number;
    /** SHA-256 of the stored image, hex. */
    sha256: string;
    /** SHA-256 of the bytes as uploaded, hex (the same photo sent twice matches here). */
    source_sha256: string;
    /** Which key sealed it: the first 16 hex of SHA-256 of the key (a rotated key is detected, not misused). */
    key_ref: string;
    iv: Buffer | null;
    tag: Buffer | null;
    ciphertext: Buffer | null;
    created_at: Date;
    /** Set once, by the module that claims the file (`attach`). */
    attached_at: Date | null;
    /** What claimed it, e.g. `verification:kyc_…:id_front`. */
    attached_ref: string | null;
    retain_until: Date | null;
    deleted_at: Date | null;
    delete_reason: DeleteReason | null;
  };
};
