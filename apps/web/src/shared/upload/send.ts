import { CODE, type Envelope } from '@bourse/protocol';
import { API_BASE, REQUEST_TIMEOUT_MS } from '../../config/app.ts';
import { ApiError, commonFields, settleText } from '../../lib/api.ts';
import { i18n } from '../../lib/i18n.ts';
import { percentOf } from './precheck.ts';

/** The part of XMLHttpRequest an upload uses (tests pass a fake). */
export type UploadXhr = Pick<
  XMLHttpRequest,
  'open' | 'send' | 'abort' | 'setRequestHeader' | 'status' | 'responseText' | 'timeout'
> & {
  upload: Pick<XMLHttpRequestUpload, 'addEventListener'>;
  addEventListener: XMLHttpRequest['addEventListener'];
};

export type SendFileOptions = {
  /** The call, e.g. `web/uploadDocument`. */
  call: string;
  /** Form fields sent before the file (the server reads `purpose` first). */
  fields: Readonly<Record<string, string>>;
  file: Blob;
  fileName: string;
  onProgress?: (percent: number) => void;
  /** Aborts the upload (a replaced file, a closed screen). */
  signal?: AbortSignal;
  /** For tests; the browser's XMLHttpRequest by default. */
  makeXhr?: () => UploadXhr;
};

/**
 * A multipart POST with upload progress (fetch has no upload progress events, so this is the one
 * call sent with XMLHttpRequest). Token, lang and a fresh rtoken go in the query as on every call;
 * the answer is settled by the one API client (`settleText`): data, or an `ApiError` whose
 * `refused` message is the server's localized refusal.
 */
export function sendFile<T>({
  call,
  fields,
  file,
  fileName,
  onProgress,
  signal,
  makeXhr = () => new XMLHttpRequest(),
}: SendFileOptions): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = makeXhr();
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    form.append('file', file, fileName);
    const failed = (key: 'api.networkError' | 'api.timeout') => () =>
      reject(new ApiError('network', i18n.t(key)));
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress?.(percentOf(event.loaded, event.total));
    });
    xhr.addEventListener('load', () => {
      try {
        onProgress?.(100);
        const refusal = fileRefusal(xhr.responseText);
        if (refusal) reject(refusal);
        else resolve(settleText<T>(call, xhr.status, xhr.responseText));
      } catch (error) {
        reject(error);
      }
    });
    xhr.addEventListener('error', failed('api.networkError'));
    xhr.addEventListener('timeout', failed('api.timeout'));
    xhr.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
    if (signal) {
      if (signal.aborted) return reject(new DOMException('aborted', 'AbortError'));
      signal.addEventListener('abort', () => xhr.abort(), { once: true });
    }
    xhr.open('POST', `${API_BASE}/${call}?${commonFields().toString()}`);
    xhr.timeout = REQUEST_TIMEOUT_MS * 4;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.send(form);
  });
}

/** The codes the pipeline refuses a file with (too large, not an image, damaged …). */
const FILE_CODES: ReadonlySet<number> = new Set([CODE.BAD_REQUEST, CODE.TOO_LARGE, CODE.UNSUPPORTED_TYPE]);

/**
 * The pipeline refuses a file (`UPLOAD_…`) with an HTTP-like code rather than 0; the field shows
 * that refusal in place, so it is a `refused` error here — not a toast on top of the field's text.
 */
function fileRefusal(text: string): ApiError | null {
  let envelope: Envelope;
  try {
    envelope = JSON.parse(text) as Envelope;
  } catch {
    return null;
  }
  if (!FILE_CODES.has(envelope.code) || !envelope.reason?.startsWith('UPLOAD_')) return null;
  return new ApiError('refused', envelope.msg, envelope);
}
