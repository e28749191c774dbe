import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { type Answer, rtoken, type TestApp } from '../../../test/harness.ts';

/** Test support for uploads and the modules that attach files (imported by *.test.ts only). */

export type FilePart = { filename: string; type: string; bytes: Buffer };

/** A multipart/form-data body of text fields and at most one file part named `file`. */
export function multipart(
  fields: Record<string, string>,
  file?: FilePart,
): { body: Buffer; contentType: string } {
  const boundary = `----bourse${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${file.filename}"\r\ncontent-type: ${file.type}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** `POST web/uploadDocument` as the app sends it (rtoken and lang in the query). */
export async function uploadDocument(
  t: Pick<TestApp, 'app'>,
  input: { token: string; file?: FilePart; purpose?: string; lang?: string; rtoken?: string },
): Promise<Answer & { headers: Record<string, unknown> }> {
  const { body, contentType } = multipart({ purpose: input.purpose ?? 'verification' }, input.file);
  const query = new URLSearchParams({
    token: input.token,
    rtoken: input.rtoken ?? rtoken(),
    lang: input.lang ?? 'en',
  });
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/web/uploadDocument?${query.toString()}`,
    payload: body,
    headers: { 'content-type': contentType },
  });
  return { status: response.statusCode, headers: response.headers, ...response.json() };
}

/** A small photo-like image (noise, so it does not compress to nothing), optionally with EXIF. */
export async function photo(
  format: 'jpeg' | 'png',
  options: {
    width?: number;
    height?: number;
    exif?: Record<string, Record<string, string>>;
    orientation?: number;
    seed?: number;
  } = {},
): Promise<Buffer> {
  const width = options.width ?? 64;
  const height = options.height ?? 48;
  const raw = Buffer.alloc(width * height * 3);
  let x = options.seed ?? 7;
  for (let i = 0; i < raw.length; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    raw[i] = x >> 16;
  }
  let image = sharp(raw, { raw: { width, height, channels: 3 } });
  if (options.exif) image = image.withExif(options.exif);
  if (options.orientation) image = image.withMetadata({ orientation: options.orientation });
  return format === 'png' ? image.png().toBuffer() : image.jpeg({ quality: 85 }).toBuffer();
}

/** A PNG whose header declares `width` × `height` (no pixels worth decoding behind it). */
export function pngHeader(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(64))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

/** Uploads a fresh verification photo and returns its file id. */
export async function uploadedFile(t: Pick<TestApp, 'app'>, token: string, seed?: number): Promise<string> {
  const bytes = await photo('jpeg', { seed: seed ?? Math.floor(Math.random() * 1e9) });
  const answer = await uploadDocument(t, { token, file: { filename: 'id.jpg', type: 'image/jpeg', bytes } });
  if (answer.code !== 1) throw new Error(`uploadDocument: ${answer.reason}`);
  return answer.data.file_id;
}
