import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api.ts';
import { sendFile, type UploadXhr } from './send.ts';

type Listener = (event: { lengthComputable: boolean; loaded: number; total: number }) => void;

/** An XMLHttpRequest that records what was sent and answers when the test says so. */
function fakeXhr() {
  const on = new Map<string, () => void>();
  const onUpload = new Map<string, Listener>();
  const sent: { method: string; url: string; body: FormData | null; aborted: boolean } = {
    method: '',
    url: '',
    body: null,
    aborted: false,
  };
  const xhr = {
    status: 0,
    responseText: '',
    timeout: 0,
    upload: { addEventListener: (type: string, listener: Listener) => onUpload.set(type, listener) },
    addEventListener: (type: string, listener: () => void) => on.set(type, listener),
    open: (method: string, url: string) => Object.assign(sent, { method, url }),
    setRequestHeader: () => {},
    send: (body: FormData) => Object.assign(sent, { body }),
    abort: () => {
      sent.aborted = true;
      on.get('abort')?.();
    },
  };
  return {
    xhr: xhr as unknown as UploadXhr,
    sent,
    progress: (loaded: number, total: number) =>
      onUpload.get('progress')?.({ lengthComputable: true, loaded, total }),
    answer: (status: number, body: unknown) => {
      xhr.status = status;
      xhr.responseText = JSON.stringify(body);
      on.get('load')?.();
    },
  };
}

const file = new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], { type: 'image/jpeg' });

describe('sending a file', () => {
  it('posts the purpose before the file, with token, lang and a fresh rtoken in the query, and reports progress', async () => {
    const fake = fakeXhr();
    const percents: number[] = [];
    const done = sendFile<{ file_id: string }>({
      call: 'web/uploadDocument',
      fields: { purpose: 'verification' },
      file,
      fileName: 'front.jpg',
      onProgress: (p) => percents.push(p),
      makeXhr: () => fake.xhr,
    });
    expect(fake.sent.method).toBe('POST');
    const url = new URL(fake.sent.url, 'http://app.test');
    expect(url.pathname).toBe('/api/web/uploadDocument');
    expect(url.searchParams.get('lang')).toBe('en');
    expect(url.searchParams.get('rtoken')).toMatch(/^[A-Za-z0-9]{12}$/);
    expect([...(fake.sent.body?.keys() ?? [])]).toEqual(['purpose', 'file']);
    expect(fake.sent.body?.get('purpose')).toBe('verification');
    expect((fake.sent.body?.get('file') as File | null)?.name).toBe('front.jpg');
    fake.progress(1, 4);
    fake.progress(3, 4);
    fake.answer(200, { code: 1, msg: '', data: { file_id: 'fil_1' } });
    await expect(done).resolves.toEqual({ file_id: 'fil_1' });
    expect(percents).toEqual([25, 75, 100]);
  });

  it('hands the pipeline’s refusal of a file to the field as a refusal, in the server’s words', async () => {
    const fake = fakeXhr();
    const done = sendFile({
      call: 'web/uploadDocument',
      fields: {},
      file,
      fileName: 'a.jpg',
      makeXhr: () => fake.xhr,
    });
    fake.answer(413, {
      code: 413,
      msg: 'The file is larger than 8 MB',
      data: null,
      reason: 'UPLOAD_TOO_LARGE',
    });
    const error = await done.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      kind: 'refused',
      message: 'The file is larger than 8 MB',
      reason: 'UPLOAD_TOO_LARGE',
    });
  });

  it('stops when the field aborts it (a replaced photo)', async () => {
    const fake = fakeXhr();
    const controller = new AbortController();
    const done = sendFile({
      call: 'web/uploadDocument',
      fields: {},
      file,
      fileName: 'a.jpg',
      signal: controller.signal,
      makeXhr: () => fake.xhr,
    });
    controller.abort();
    await expect(done).rejects.toMatchObject({ name: 'AbortError' });
    expect(fake.sent.aborted).toBe(true);
  });
});
