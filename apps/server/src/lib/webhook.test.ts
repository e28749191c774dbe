import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook } from './webhook.ts';

describe('webhook signatures', () => {
  const secret = 'whsec_test';
  const body = '{"event":"deposit.confirmed"}';
  const now = 1_790_000_000_000;

  it('accepts its own signature within the tolerance', () => {
    expect(verifyWebhook(secret, body, signWebhook(secret, body, now), now + 10_000)).toEqual({ ok: true });
  });
  it('refuses a changed body, another secret, an old signature and garbage', () => {
    const header = signWebhook(secret, body, now);
    expect(verifyWebhook(secret, `${body} `, header, now)).toEqual({ ok: false, why: 'mismatch' });
    expect(verifyWebhook('other', body, header, now)).toEqual({ ok: false, why: 'mismatch' });
    expect(verifyWebhook(secret, body, header, now + 301_000)).toEqual({ ok: false, why: 'expired' });
    expect(verifyWebhook(secret, body, undefined, now)).toEqual({ ok: false, why: 'missing' });
    expect(verifyWebhook(secret, body, 't=abc,v1=zz', now)).toEqual({ ok: false, why: 'malformed' });
  });
});
