import { UPLOAD_LIMITS } from '@bourse/protocol';
import { describe, expect, it } from 'vitest';
import { Refusal } from '../../http/refusal.ts';
import { createDocumentCipher, documentKey, linkSignature, linkSignatureOk, parseViewer } from './cipher.ts';
import { cleanImage, hasActiveContent, headerDimensions } from './image.ts';
import { photo, pngHeader } from './testing.ts';

/** The pure parts of the pipeline: header sizes, the markup scan, the cipher and link signatures. */

/** SOI, an APP0 segment, then a baseline SOF0 declaring `width` × `height` (no scan data). */
function jpegHeader(width: number, height: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 8, 0, 0, 0, 0, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])]);
}

async function reasonOf(bytes: Buffer): Promise<string> {
  try {
    await cleanImage(bytes);
    return 'accepted';
  } catch (error) {
    if (error instanceof Refusal) return error.reason;
    throw error;
  }
}

describe('header dimensions, read without decoding', () => {
  it('finds the size in a PNG IHDR and a JPEG start-of-frame', async () => {
    expect(headerDimensions(pngHeader(30_000, 20_000), 'image/png')).toEqual({
      width: 30_000,
      height: 20_000,
    });
    expect(headerDimensions(jpegHeader(1234, 567), 'image/jpeg')).toEqual({ width: 1234, height: 567 });
    const real = await photo('jpeg', { width: 40, height: 30 });
    expect(headerDimensions(real, 'image/jpeg')).toEqual({ width: 40, height: 30 });
  });

  it('a JPEG bomb is refused by its header like a PNG one; a header without a size is corrupt', async () => {
    expect(await reasonOf(jpegHeader(30_000, 30_000))).toBe('UPLOAD_TOO_MANY_PIXELS');
    expect(await reasonOf(jpegHeader(0, 10))).toBe('UPLOAD_CORRUPT');
    const side = Math.floor(Math.sqrt(UPLOAD_LIMITS.maxPixels)) + 1;
    expect(await reasonOf(pngHeader(side, side))).toBe('UPLOAD_TOO_MANY_PIXELS');
  });
});

describe('active content', () => {
  it('finds markup in any letter case, and not in ordinary image bytes', async () => {
    for (const markup of [
      '<html>',
      '<SCRIPT src=x>',
      '<svg/onload=1>',
      '<!DOCTYPE html>',
      '<img src=x onerror=1>',
      'javascript:alert(1)',
    ]) {
      expect(
        hasActiveContent(Buffer.concat([Buffer.alloc(10), Buffer.from(markup), Buffer.alloc(10)])),
        markup,
      ).toBe(true);
    }
    for (let seed = 1; seed <= 20; seed++) {
      expect(hasActiveContent(await photo('jpeg', { width: 200, height: 200, seed }))).toBe(false);
    }
  });
});

describe('the document cipher', () => {
  const { key } = documentKey(Buffer.alloc(32, 7).toString('base64'), 'unused-secret-unused-secret-unused!');

  it('opens what it sealed, only for the same file id, and not after a change', () => {
    const cipher = createDocumentCipher(key);
    const sealed = cipher.sealBytes('upl_1', Buffer.from('image bytes'));
    expect(cipher.openBytes('upl_1', sealed).toString()).toBe('image bytes');
    expect(() => cipher.openBytes('upl_2', sealed)).toThrow();
    const flipped = Buffer.from(sealed.ciphertext);
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(() => cipher.openBytes('upl_1', { ...sealed, ciphertext: flipped })).toThrow();
    const text = cipher.sealText('kyc_1', 'G12345678');
    expect(text).not.toContain('G12345678');
    expect(cipher.openText('kyc_1', text)).toBe('G12345678');
  });

  it('derives a key from SECRET when DOCUMENT_KEY is unset, and says so', () => {
    const a = documentKey(null, 'a-secret-a-secret-a-secret-a-secret!');
    const b = documentKey(null, 'b-secret-b-secret-b-secret-b-secret!');
    expect(a.derived).toBe(true);
    expect(a.key).toHaveLength(32);
    expect(a.key.equals(b.key)).toBe(false);
    expect(documentKey(null, 'a-secret-a-secret-a-secret-a-secret!').key.equals(a.key)).toBe(true);
    expect(createDocumentCipher(a.key).keyRef).not.toBe(createDocumentCipher(b.key).keyRef);
  });
});

describe('link signatures', () => {
  it('cover the file, the expiry and the viewer', () => {
    const secret = 'link-secret-link-secret-link-secret!';
    const sig = linkSignature(secret, 'upl_1', 1000, 'c:usr_1');
    expect(linkSignatureOk(secret, 'upl_1', 1000, 'c:usr_1', sig)).toBe(true);
    expect(linkSignatureOk(secret, 'upl_2', 1000, 'c:usr_1', sig)).toBe(false);
    expect(linkSignatureOk(secret, 'upl_1', 1001, 'c:usr_1', sig)).toBe(false);
    expect(linkSignatureOk(secret, 'upl_1', 1000, 's:usr_1', sig)).toBe(false);
    expect(linkSignatureOk(`${secret}x`, 'upl_1', 1000, 'c:usr_1', sig)).toBe(false);
    expect(parseViewer('s:stf_1')).toEqual({ kind: 'staff', id: 'stf_1' });
    expect(parseViewer('x:stf_1')).toBeNull();
  });
});
