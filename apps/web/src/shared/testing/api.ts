import { CODE, type Envelope } from '@bourse/protocol';
import { vi } from 'vitest';

/**
 * The network as screen tests see it: `fetch` answers `/api/web/<call>` from the handlers
 * given, in the server's envelope. Every call is recorded (method, query, form body) so a test can
 * assert what a screen sent; a call without a handler is refused and recorded in `unhandled`.
 */
export type ApiCall = {
  call: string;
  method: string;
  /** Query parameters of a GET, or the form fields of a POST. */
  params: Record<string, string>;
};

/** A handler's refusal: the envelope the server sends for an expected failure (code 0). */
export class Refusal {
  readonly reason: string;
  readonly msg: string;
  readonly params: Record<string, string | number>;
  constructor(reason: string, params: Record<string, string | number> = {}, msg = `refused: ${reason}`) {
    this.reason = reason;
    this.params = params;
    this.msg = msg;
  }
}

export type Handler = (call: ApiCall) => unknown;

export type MockedApi = {
  calls: ApiCall[];
  unhandled: string[];
  callsTo(call: string): ApiCall[];
  on(handlers: Record<string, Handler>): void;
};

const PREFIX = '/api/web/';

/** Replaces `fetch` for this test (the render helper's cleanup restores it). */
export function mockApi(initial: Record<string, Handler> = {}): MockedApi {
  const handlers = new Map(Object.entries(initial));
  const calls: ApiCall[] = [];
  const unhandled: string[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input instanceof Request ? input.url : input), 'http://web.test');
    if (!url.pathname.startsWith(PREFIX)) throw new TypeError(`unexpected fetch ${url.pathname}`);
    const call = url.pathname.slice(PREFIX.length);
    const form = typeof init?.body === 'string' ? new URLSearchParams(init.body) : url.searchParams;
    const recorded: ApiCall = { call, method: init?.method ?? 'GET', params: Object.fromEntries(form) };
    calls.push(recorded);
    const handler = handlers.get(call);
    let answer: Envelope;
    if (!handler) {
      unhandled.push(call);
      answer = {
        code: CODE.REFUSED,
        msg: `no mock for ${call}`,
        data: null,
        reason: 'BAD_INPUT',
      } as Envelope;
    } else {
      const data = await handler(recorded);
      answer =
        data instanceof Refusal
          ? ({
              code: CODE.REFUSED,
              msg: data.msg,
              data: null,
              reason: data.reason,
              params: data.params,
            } as Envelope)
          : ({ code: CODE.OK, msg: '', data: data ?? null } as Envelope);
    }
    return new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    unhandled,
    callsTo: (call) => calls.filter((c) => c.call === call),
    on(more) {
      for (const [call, handler] of Object.entries(more)) handlers.set(call, handler);
    },
  };
}
