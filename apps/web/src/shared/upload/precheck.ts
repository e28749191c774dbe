/**
 * What the browser checks before sending a document: the server is the authority (it recognises the
 * type by content, caps the pixels and re-encodes), this only spares the customer a useless upload.
 */

/** The types the upload pipeline accepts (spec 5: JPG, JPEG or PNG). */
export const UPLOAD_TYPES = ['image/jpeg', 'image/png'] as const;
/** The `accept` attribute of the file inputs. */
export const UPLOAD_ACCEPT = UPLOAD_TYPES.join(',');
/** The pipeline's size cap (spec 5: images under 8 MB). */
export const UPLOAD_MAX_BYTES = 8 * 1024 * 1024;

const NAME_TYPES: ReadonlyArray<[RegExp, (typeof UPLOAD_TYPES)[number]]> = [
  [/\.jpe?g$/i, 'image/jpeg'],
  [/\.png$/i, 'image/png'],
];

export type PrecheckRefusal = { rule: 'empty' } | { rule: 'tooLarge'; maxMb: number } | { rule: 'type' };

/**
 * A file's refusal before upload, or null when it may be sent. The type is the browser's when it
 * knows one, else the name's extension (some phone galleries give no type); anything but JPEG or
 * PNG is refused here, the server decides on the bytes.
 */
export function precheck(
  file: { size: number; type: string; name: string },
  maxBytes = UPLOAD_MAX_BYTES,
): PrecheckRefusal | null {
  if (file.size === 0) return { rule: 'empty' };
  if (file.size > maxBytes) return { rule: 'tooLarge', maxMb: Math.floor(maxBytes / (1024 * 1024)) };
  const type = file.type !== '' ? file.type : NAME_TYPES.find(([pattern]) => pattern.test(file.name))?.[1];
  if (type === undefined || !(UPLOAD_TYPES as readonly string[]).includes(type)) return { rule: 'type' };
  return null;
}

/** Whole percent of an upload, from the XHR progress event's figures (0 while the total is unknown). */
export function percentOf(loaded: number, total: number): number {
  if (!(total > 0)) return 0;
  return Math.min(100, Math.max(0, Math.floor((loaded * 100) / total)));
}
