import { createHash } from 'node:crypto';
import { UPLOAD_LIMITS, type UploadMimeType } from '@bourse/protocol';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { refuse } from '../../http/refusal.ts';

/**
 * What an upload must pass before it is stored, cheapest check first, each refusal its own reason:
 * empty → too large → not a JPG/PNG by its bytes → markup anywhere in the bytes (a polyglot) →
 * too many pixels by the header (nothing decoded yet) → re-encoded by sharp, which refuses a
 * truncated or damaged image and drops every metadata block (EXIF with GPS, XMP, ICC, comments).
 */

export type CleanImage = {
  mime: UploadMimeType;
  width: number;
  height: number;
  bytes: Buffer;
  sha256: string;
  sourceSha256: string;
};

/**
 * Markup a browser would act on if the bytes were ever read as HTML or SVG: a tag name followed by
 * whitespace, `>` or `/`, or a `javascript:` URL, in any letter case. Compressed pixel data is
 * close to random: a 5+ character pattern with its delimiter turns up by chance in well under one
 * file in a thousand even at 8 MB.
 */
const ACTIVE_CONTENT =
  /<(?:html|head|body|script|svg|iframe|object|embed|style|meta|link|form|base|img|!doctype|\?php|\?xml-stylesheet)[\s>/]|javascript:/i;

export function hasActiveContent(bytes: Buffer): boolean {
  return ACTIVE_CONTENT.test(bytes.toString('latin1'));
}

/** A JPEG start-of-frame marker (SOF0–SOF15 but DHT C4, JPG C8 and DAC CC). */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

function jpegDimensions(b: Buffer): { width: number; height: number } | null {
  let i = 2;
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1] ?? 0;
    if (marker === 0xff) {
      i += 1; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      i += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image or scan data before a frame
    const length = b.readUInt16BE(i + 2);
    if (length < 2) return null;
    if (isStartOfFrame(marker)) {
      if (i + 9 > b.length) return null;
      return { height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
    }
    i += 2 + length;
  }
  return null;
}

function pngDimensions(b: Buffer): { width: number; height: number } | null {
  if (b.length < 24 || b.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

/** Width and height as the file's header declares them, read without decoding a pixel; null when unreadable. */
export function headerDimensions(
  bytes: Buffer,
  mime: UploadMimeType,
): { width: number; height: number } | null {
  const found = mime === 'image/png' ? pngDimensions(bytes) : jpegDimensions(bytes);
  if (!found || found.width <= 0 || found.height <= 0) return null;
  return found;
}

/** JPG/JPEG or PNG by the first bytes (file-type), whatever the file is called or claims to be. */
export async function sniff(bytes: Buffer): Promise<UploadMimeType | null> {
  const found = await fileTypeFromBuffer(bytes);
  if (found?.mime === 'image/jpeg' || found?.mime === 'image/png') return found.mime;
  return null;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Decodes, turns upright by the EXIF orientation and encodes again with no metadata at all. */
async function reencode(bytes: Buffer, mime: UploadMimeType) {
  const pipeline = sharp(bytes, { failOn: 'error', limitInputPixels: UPLOAD_LIMITS.maxPixels }).autoOrient();
  const encoded = mime === 'image/png' ? pipeline.png() : pipeline.jpeg({ quality: 90 });
  try {
    return await encoded.toBuffer({ resolveWithObject: true });
  } catch (error) {
    if (/pixel limit/i.test((error as Error).message)) {
      refuse('UPLOAD_TOO_MANY_PIXELS', { maxPixels: UPLOAD_LIMITS.maxPixels, width: 0, height: 0 });
    }
    refuse('UPLOAD_CORRUPT');
  }
}

/** Every check of an upload, in order; the image as it will be stored. */
export async function cleanImage(bytes: Buffer | null): Promise<CleanImage> {
  if (!bytes || bytes.length === 0) refuse('UPLOAD_EMPTY');
  if (bytes.length > UPLOAD_LIMITS.maxBytes) refuse('UPLOAD_TOO_LARGE', { maxBytes: UPLOAD_LIMITS.maxBytes });
  const mime = await sniff(bytes);
  if (!mime) refuse('UPLOAD_TYPE_INVALID');
  if (hasActiveContent(bytes)) refuse('UPLOAD_ACTIVE_CONTENT');
  const declared = headerDimensions(bytes, mime);
  if (!declared) refuse('UPLOAD_CORRUPT');
  if (declared.width * declared.height > UPLOAD_LIMITS.maxPixels) {
    refuse('UPLOAD_TOO_MANY_PIXELS', { maxPixels: UPLOAD_LIMITS.maxPixels, ...declared });
  }
  const out = await reencode(bytes, mime);
  return {
    mime,
    width: out.info.width,
    height: out.info.height,
    bytes: out.data,
    sha256: sha256(out.data),
    sourceSha256: sha256(bytes),
  };
}
