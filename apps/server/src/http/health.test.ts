import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { adminCall, staffSession } from '../modules/staff/testing.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ feedTickMs: 0, marketMaker: 'on' });
  t.app.marketMaker.stop(); // rounds are driven by the test
  await t.app.market.step();
  await t.app.marketMaker.refreshNow();
});
afterAll(async () => t?.close());

describe('health and metrics', () => {
  it('plain /healthz answers as before: {status: "ok"} and nothing else', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ status: 'ok' });
  });

  it('/healthz?detail=1: process memory and the market maker per market and book', async () => {
    t.clock.advance(5_000);
    const r = await t.app.inject({ method: 'GET', url: '/healthz?detail=1' });
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(Object.keys(body).sort()).toEqual(['market_maker', 'process', 'status']);
    expect(body.status).toBe('ok');
    expect(body.process.heap_used_bytes).toBeGreaterThan(0);
    expect(body.process.rss_bytes).toBeGreaterThan(0);
    expect(body.process.uptime_s).toBeGreaterThanOrEqual(0);
    expect(body.market_maker.enabled).toBe(true);
    expect(body.market_maker.markets).toHaveLength(10); // 5 markets × 2 books
    const btc = body.market_maker.markets.find(
      (m: { symbol: string; book: string }) => m.symbol === 'BTC/USDT' && m.book === 'real',
    );
    expect(btc).toEqual({
      symbol: 'BTC/USDT',
      book: 'real',
      last_quote_at: '2026-11-21T04:00:00.000Z',
      last_quote_age_s: 5,
      errors_last_hour: 0,
      errors_total: 0,
      last_error: null,
    });
  });

  it('/metrics: Prometheus text with memory, quote age per market and book, errors and answers by class', async () => {
    await t.app.inject({ method: 'GET', url: '/no-such-page' });
    const r = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = r.body;
    const value = (line: string) =>
      Number(text.match(new RegExp(`^${line.replace(/[{}/]/g, '\\$&')} (\\S+)$`, 'm'))?.[1]);
    expect(value('process_heap_used_bytes')).toBeGreaterThan(0);
    expect(value('process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(value('bourse_market_maker_enabled')).toBe(1);
    // 5 s passed on the injected clock since the round above.
    expect(value('bourse_market_maker_last_quote_age_seconds{symbol="BTC/USDT",book="real"}')).toBe(5);
    expect(value('bourse_market_maker_last_quote_age_seconds{symbol="TRX/USDT",book="demo"}')).toBe(5);
    expect(value('bourse_market_maker_errors_total{symbol="ETH/USDT",book="demo"}')).toBe(0);
    expect(value('bourse_http_requests_total{status_class="2xx"}')).toBeGreaterThanOrEqual(2);
    expect(value('bourse_http_requests_total{status_class="4xx"}')).toBeGreaterThanOrEqual(1);
    expect(text).toContain('# TYPE bourse_market_maker_errors_total counter');
    for (const line of text.trim().split('\n'))
      expect(line).toMatch(/^(# (HELP|TYPE) \w+ .+|\w+(\{[^}]*\})? (\+Inf|-?\d+(\.\d+)?))$/);
  });

  it('staff read the same health with risk.read; others are refused', async () => {
    const compliance = await staffSession(t, ['compliance']);
    const ok = await adminCall(t.app, { method: 'GET', call: 'marketMakerHealth', token: compliance.token });
    expect(ok.code).toBe(1);
    expect(ok.data.enabled).toBe(true);
    expect(ok.data.markets).toHaveLength(10);
    const support = await staffSession(t, ['support']);
    const refused = await adminCall(t.app, {
      method: 'GET',
      call: 'marketMakerHealth',
      token: support.token,
    });
    expect(refused.reason).toBe('FORBIDDEN');
  });
});
