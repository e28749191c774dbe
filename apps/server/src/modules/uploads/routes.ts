import { createHash } from 'node:crypto';
import { CommonFields, DocumentLinkQuery, UPLOAD_LIMITS, UploadDocumentQuery } from '@bourse/protocol';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ok } from '../../http/envelope.ts';
import { Refusal, refuse } from '../../http/refusal.ts';
import { authOf, staffOf } from '../../http/request.ts';
import type { Uploads } from './service.ts';

/** The parts of an upload, read before the hooks that need the request's identity (see readUpload). */
const received = new WeakMap<FastifyRequest, { purpose: string; bytes: Buffer | null }>();

/** `lang` and `rtoken` may come as parts too (as form fields do on every other call); the token may not (below). */
const ENVELOPE_FIELDS = ['lang', 'rtoken'];

/** A session token in the query, the `token` header or `Authorization: Bearer` (not yet checked: the auth hook does). */
function carriesToken(request: FastifyRequest): boolean {
  const query = request.query as { token?: unknown } | undefined;
  return (
    (typeof query?.token === 'string' && query.token !== '') ||
    typeof request.headers.token === 'string' ||
    /^Bearer\s+\S+$/i.test(request.headers.authorization ?? '')
  );
}

/** A part over its limit, or too many parts: the busboy/multipart errors become our reasons. */
function multipartRefusal(error: unknown): Refusal {
  if (error instanceof Refusal) return error;
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE')
    return new Refusal('UPLOAD_TOO_LARGE', { maxBytes: UPLOAD_LIMITS.maxBytes });
  if (code === 'FST_FILES_LIMIT') return new Refusal('BAD_INPUT', { field: 'file' });
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
    return new Refusal('BAD_INPUT', { field: 'body' });
  return new Refusal('MALFORMED_BODY');
}

/**
 * Reads the multipart body (`purpose`, `file`) in `preValidation`, i.e. before the session and
 * idempotency hooks: the request's identity for its rtoken then covers the purpose and the file's
 * SHA-256, so the same rtoken with another file is RTOKEN_REUSED rather than the first answer.
 * The file is limited to 8 MiB while it streams: one byte more is UPLOAD_TOO_LARGE. The token
 * comes in the query or a header, so a request without one is refused before its body is read.
 */
async function readUpload(request: FastifyRequest): Promise<void> {
  // Up to 8 MiB is read before the session is checked: only for a caller who at least sent a token.
  if (!carriesToken(request)) refuse('LOGIN_REQUIRED');
  if (!request.isMultipart()) refuse('UPLOAD_EMPTY');
  let purpose = '';
  let bytes: Buffer | null = null;
  const envelope: Record<string, string> = {};
  try {
    const parts = request.parts({
      limits: { fileSize: UPLOAD_LIMITS.maxBytes, files: 1, fields: 4, parts: 6, fieldSize: 256 },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') refuse('UNKNOWN_FIELD', { field: part.fieldname });
        bytes = await part.toBuffer();
      } else if (part.fieldname === 'purpose') {
        if (part.valueTruncated) refuse('FIELD_TOO_LONG', { field: 'purpose', max: 32 });
        purpose = String(part.value);
      } else if (ENVELOPE_FIELDS.includes(part.fieldname)) {
        envelope[part.fieldname] = String(part.value);
      } else {
        refuse('UNKNOWN_FIELD', { field: part.fieldname });
      }
    }
  } catch (error) {
    throw multipartRefusal(error);
  }
  if (purpose === '') refuse('FIELD_REQUIRED', { field: 'purpose' });
  received.set(request, { purpose, bytes });
  request.body = {
    ...envelope,
    purpose,
    file_sha256: bytes ? createHash('sha256').update(bytes).digest('hex') : '',
  };
}

/** Customer calls under /api/web: the upload and the owner's link. */
export function uploadsRoutes(deps: { uploads: Uploads }) {
  const { uploads } = deps;
  return async (app: FastifyInstance) => {
    const tags = ['documents'];
    await app.register(multipart, { throwFileSizeLimit: true });
    app.post(
      '/uploadDocument',
      {
        schema: {
          tags,
          summary:
            'Upload a document image: multipart `purpose` + `file` (JPG/PNG by content, ≤ 8 MiB, ≤ 40 MP)',
          querystring: UploadDocumentQuery,
          consumes: ['multipart/form-data'],
        },
        config: { auth: 'required', idempotent: true, uploadMaxBytes: UPLOAD_LIMITS.maxBytes },
        preValidation: readUpload,
      },
      async (request) => {
        const input = received.get(request) ?? { purpose: '', bytes: null };
        return ok(request, await uploads.upload(authOf(request), input));
      },
    );
    app.get(
      '/documentLink',
      {
        schema: {
          tags,
          summary: "A 5-minute link to one of the customer's own documents",
          querystring: DocumentLinkQuery,
        },
        config: { auth: 'required' },
      },
      async (request) => {
        const q = request.query as DocumentLinkQuery;
        return ok(request, await uploads.customerLink(authOf(request), q.file_id));
      },
    );
  };
}

/** Staff calls under /api/admin. */
export function uploadsAdminRoutes(deps: { uploads: Uploads }) {
  return async (app: FastifyInstance) => {
    app.get(
      '/documents/link',
      {
        schema: {
          tags: ['admin', 'documents'],
          summary: 'A 5-minute link to a customer document (audited: document.view)',
          querystring: DocumentLinkQuery,
        },
        config: { permission: 'verification.read' },
      },
      async (request) => {
        const q = request.query as DocumentLinkQuery;
        return ok(request, await deps.uploads.staffLink(staffOf(request).staffId, q.file_id));
      },
    );
  };
}

const FileParams = Type.Object(
  { id: Type.String({ pattern: '^[A-Za-z0-9_]{1,40}$' }) },
  { additionalProperties: false },
);
const FileQuery = Type.Object(
  {
    ...CommonFields,
    exp: Type.String({ pattern: '^[0-9]{1,15}$' }),
    by: Type.String({ maxLength: 70 }),
    sig: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  },
  { additionalProperties: false },
);

/** `GET /api/files/<id>?exp&by&sig`: a signed link's document, never cached, never sniffed. */
export function filesRoutes(deps: { uploads: Uploads }) {
  return async (app: FastifyInstance) => {
    app.get(
      '/:id',
      {
        schema: {
          tags: ['documents'],
          summary: 'The image behind a signed document link (no session: the link is the key, for 5 minutes)',
          params: FileParams,
          querystring: FileQuery,
        },
      },
      async (request, reply) => {
        const { id } = request.params as { id: string };
        const q = request.query as { exp: string; by: string; sig: string };
        const file = await deps.uploads.serve(id, q);
        return reply
          .header('content-type', file.mime)
          .header('cache-control', 'no-store')
          .header('x-content-type-options', 'nosniff')
          .header(
            'content-disposition',
            `inline; filename="${id}.${file.mime === 'image/png' ? 'png' : 'jpg'}"`,
          )
          .header('content-security-policy', "default-src 'none'; sandbox")
          .header('cross-origin-resource-policy', 'same-origin')
          .send(file.bytes);
      },
    );
  };
}
