import { CODE, type Envelope } from '@bourse/protocol';
import { vi } from 'vitest';
import { staffToken } from '../app/api.ts';

/**
 * The network as the component tests see it: `fetch` answers `/api/admin/<call>` from the handlers
 * given, in the server's envelope. Every call is recorded (method, query, JSON body) so a test can
 * assert what a form sent; a call without a handler is refused and recorded in `unhandled`.
 */
export type ApiCall = {
  call: string;
  method: string;
  /** Query parameters of a GET. */
  query: Record<string, string>;
  /** The JSON body of a POST (null for a GET). */
  body: Record<string, unknown> | null;
  authorization: string | null;
};

/** A handler's refusal: the envelope the server sends for an expected failure. */
export class Refusal {
  readonly msg: string;
  readonly reason: string;
  /** CODE.REFUSED, or a session end (CODE.SESSION_ENDED). */
  readonly code: number;
  constructor(msg: string, reason = 'BAD_INPUT', code: number = CODE.REFUSED) {
    this.msg = msg;
    this.reason = reason;
    this.code = code;
  }
}

export type Handler = (call: ApiCall) => unknown;

export type MockedApi = {
  calls: ApiCall[];
  unhandled: string[];
  /** The calls made to one endpoint, in order. */
  callsTo(call: string): ApiCall[];
  /** Adds or replaces handlers. */
  on(handlers: Record<string, Handler>): void;
};

const PREFIX = '/api/admin/';

function envelope(code: number, msg: string, data: unknown, reason?: string): Envelope {
  return { code, msg, data, ...(reason ? { reason } : {}) } as Envelope;
}

/** Replaces `fetch` for this test (vitest's `unstubAllGlobals` in the render helper's cleanup restores it). */
export function mockApi(initial: Record<string, Handler> = {}): MockedApi {
  const handlers = new Map(Object.entries(initial));
  const calls: ApiCall[] = [];
  const unhandled: string[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input instanceof Request ? input.url : input), 'http://admin.test');
    if (!url.pathname.startsWith(PREFIX)) throw new TypeError(`unexpected fetch ${url.pathname}`);
    const call = url.pathname.slice(PREFIX.length);
    const headers = new Headers(init?.headers);
    const recorded: ApiCall = {
      call,
      method: init?.method ?? 'GET',
      query: Object.fromEntries(url.searchParams),
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : null,
      authorization: headers.get('authorization'),
    };
    calls.push(recorded);
    const handler = handlers.get(call);
    let answer: Envelope;
    if (!handler) {
      unhandled.push(call);
      answer = envelope(CODE.REFUSED, `no mock for ${call}`, null, 'BAD_INPUT');
    } else {
      const data = await handler(recorded);
      answer =
        data instanceof Refusal
          ? envelope(data.code, data.msg, null, data.reason)
          : envelope(CODE.OK, '', data ?? null);
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

export const STAFF_ID = 'stf_me';

/** Signs a staff member in with these permissions: a token in this tab, and `staffMe` answering. */
export function signIn(api: MockedApi, permissions: string[], email = 'ops@bourse.test'): void {
  api.on({
    staffMe: () => ({ staff_id: STAFF_ID, email, name: 'Ops', roles: ['ops'], permissions }),
  });
  staffToken.set('stk_test');
}
