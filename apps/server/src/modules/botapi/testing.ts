import type { FastifyInstance } from 'fastify';
import { call, type TestApp } from '../../../test/harness.ts';
import { hmacHex } from '../apikeys/index.ts';
import { TRADE_PASSWORD, customer as tradeCustomer } from '../withdrawals/testing.ts';

/** A real customer with a trade password, and an API key of theirs (created through the web call). */
export async function customerWithKey(
  t: TestApp,
  options: { permission?: 'read' | 'trade'; ips?: string; expiresDays?: string } = {},
) {
  const c = await tradeCustomer(t);
  const created = await call(t.app, {
    call: 'createApiKey',
    fields: {
      token: c.token,
      label: 'bot',
      permission: options.permission ?? 'trade',
      ...(options.ips ? { ips: options.ips } : {}),
      ...(options.expiresDays ? { expires_days: options.expiresDays } : {}),
      trade_password: TRADE_PASSWORD,
    },
  });
  if (created.code !== 1) throw new Error(`createApiKey failed: ${created.msg}`);
  return {
    ...c,
    keyId: created.data.id as string,
    apiKey: created.data.api_key as string,
    secret: created.data.secret as string,
  };
}

export type Signed = { status: number; body: unknown; headers: Record<string, unknown> };

/** A signed Binance-style call through inject: params in the query (GET, DELETE) or the form body (POST). */
export async function signed(
  app: FastifyInstance,
  key: { apiKey: string; secret: string },
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  params: Record<string, string>,
  options: { timestamp: number; remoteAddress?: string; secret?: string; recvWindow?: string },
): Promise<Signed> {
  const text = new URLSearchParams({
    ...params,
    timestamp: String(options.timestamp),
    ...(options.recvWindow ? { recvWindow: options.recvWindow } : {}),
  }).toString();
  const signedText = `${text}&signature=${hmacHex(options.secret ?? key.secret, text)}`;
  const url = `/api/v3${path}`;
  const headers = { 'x-mbx-apikey': key.apiKey };
  const response =
    method === 'POST'
      ? await app.inject({
          method,
          url,
          payload: signedText,
          headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
          ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
        })
      : await app.inject({
          method,
          url: `${url}?${signedText}`,
          headers,
          ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
        });
  return { status: response.statusCode, body: response.json(), headers: response.headers };
}
