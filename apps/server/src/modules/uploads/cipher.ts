import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { hmac, safeEqual } from '../../lib/crypto.ts';

/**
 * The document key and what is done with it: AES-256-GCM for stored documents (bytes) and for the
 * identity data other modules keep sealed (text, e.g. ID numbers), each bound to its row by the
 * additional data; and the HMAC-signed, short-lived links documents are served through.
 */

export type DocumentCipher = {
  /** First 16 hex of SHA-256 of the key: stored with each file, so a changed key is noticed. */
  keyRef: string;
  sealBytes(aad: string, plain: Buffer): { iv: Buffer; tag: Buffer; ciphertext: Buffer };
  openBytes(aad: string, sealed: { iv: Buffer; tag: Buffer; ciphertext: Buffer }): Buffer;
  /** `iv.tag.body` in base64url. */
  sealText(aad: string, plain: string): string;
  openText(aad: string, sealed: string): string;
};

/**
 * DOCUMENT_KEY (32 bytes, base64) when configured; otherwise derived from the server secret with
 * HKDF-SHA256 (`derived: true`: the caller warns once at start — the documents then depend on SECRET).
 */
export function documentKey(configured: string | null, secret: string): { key: Buffer; derived: boolean } {
  if (configured) return { key: Buffer.from(configured, 'base64'), derived: false };
  const key = Buffer.from(hkdfSync('sha256', secret, 'bourse-documents', 'document-key-v1', 32));
  return { key, derived: true };
}

export function createDocumentCipher(key: Buffer): DocumentCipher {
  if (key.length !== 32) throw new Error('the document key must be 32 bytes');
  const sealBytes = (aad: string, plain: Buffer) => {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(aad, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plain), cipher.final()]);
    return { iv, tag: cipher.getAuthTag(), ciphertext };
  };
  const openBytes = (aad: string, sealed: { iv: Buffer; tag: Buffer; ciphertext: Buffer }) => {
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.iv);
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(sealed.tag);
    return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]);
  };
  return {
    keyRef: createHash('sha256').update(key).digest('hex').slice(0, 16),
    sealBytes,
    openBytes,
    sealText(aad, plain) {
      const s = sealBytes(aad, Buffer.from(plain, 'utf8'));
      return [s.iv, s.tag, s.ciphertext].map((b) => b.toString('base64url')).join('.');
    },
    openText(aad, sealed) {
      const [iv, tag, ciphertext] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
      if (!iv || !tag || !ciphertext) throw new Error('sealed text is malformed');
      return openBytes(aad, { iv, tag, ciphertext }).toString('utf8');
    },
  };
}

/** Who a link was issued to: `c:<customer id>` (the owner) or `s:<staff id>`. */
/**
 * Who a link was issued to: the file's owner, a staff member, or a party to what the file is attached
 * to (a C2C order's other side) — the module that asked checked that before the link was signed.
 */
export type Viewer = { kind: 'customer' | 'staff' | 'party'; id: string };

const VIEWER_CODE = { customer: 'c', staff: 's', party: 'p' } as const;
const VIEWER_KIND = { c: 'customer', s: 'staff', p: 'party' } as const;

export function viewerText(viewer: Viewer): string {
  return `${VIEWER_CODE[viewer.kind]}:${viewer.id}`;
}

export function parseViewer(text: string): Viewer | null {
  const m = /^([csp]):([A-Za-z0-9_]{1,64})$/.exec(text);
  if (!m?.[1] || !m[2]) return null;
  return { kind: VIEWER_KIND[m[1] as keyof typeof VIEWER_KIND], id: m[2] };
}

/** The signature of a link: HMAC-SHA256 (server secret) over the file, the expiry and the viewer. */
export function linkSignature(secret: string, fileId: string, expiresAt: number, by: string): string {
  return hmac(secret, `file-link|${fileId}|${expiresAt}|${by}`);
}

export function linkSignatureOk(secret: string, fileId: string, expiresAt: number, by: string, sig: string) {
  return safeEqual(linkSignature(secret, fileId, expiresAt, by), sig);
}
