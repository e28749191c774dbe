import sharp from 'sharp';
import { expect } from 'vitest';
import { type Envelope, staffCall, webCall } from './api.ts';
import { baseUrl } from './browser.ts';
import { custodySecret, postCustodyWebhook, usdtDeposit } from './custody.ts';
import { until } from './wait.ts';

/**
 * What several end-to-end suites set up through the real calls: document images, uploads through
 * the upload pipeline, verification (real name, then advanced) decided by staff — a second
 * administrator when four eyes wait — USDT deposits as custody reports them, and spot balances.
 */

export type Person = { token: string; email: string; name: string };
/** Two staff session tokens: four-eyes decisions need a second member. */
export type StaffPair = { first: string; second: string };

/** A decimal as a number reads ("183.50000000" → "183.5"). */
export const dec = (value: string): string =>
  value.includes('.') ? value.replace(/0+$/, '').replace(/\.$/, '') : value;

/** A JPEG that looks like a document or a bank slip, tinted per use (each upload its own image). */
export async function documentImage(hue: number, label: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="400">
    <rect width="640" height="400" fill="hsl(${hue},35%,88%)"/>
    <rect x="24" y="24" width="592" height="352" rx="18" fill="#fff" stroke="hsl(${hue},40%,45%)" stroke-width="4"/>
    <rect x="52" y="80" width="150" height="190" rx="8" fill="hsl(${hue},20%,75%)"/>
    <text x="52" y="62" font-size="26" font-family="sans-serif" fill="#234">${label}</text>
    <rect x="230" y="96" width="300" height="14" rx="7" fill="#9aa"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

/** An upload through the real pipeline (`uploadDocument`); its file id. */
export async function uploadFile(
  token: string,
  purpose: string,
  hue: number,
  label: string,
): Promise<string> {
  const form = new FormData();
  form.append('purpose', purpose);
  form.append(
    'file',
    new Blob([new Uint8Array(await documentImage(hue, label))], { type: 'image/jpeg' }),
    `${label.replace(/\W+/g, '-')}.jpg`,
  );
  const query = new URLSearchParams({
    token,
    lang: 'en',
    rtoken: `up${Math.random().toString(36).slice(2, 12)}`,
  });
  const answer = (await (
    await fetch(`${baseUrl()}/api/web/uploadDocument?${query}`, { method: 'POST', body: form })
  ).json()) as Envelope<{ file_id: string }>;
  expect(answer.code, answer.msg).toBe(1);
  return answer.data.file_id;
}

/** Every document of a tier's submission approved (the second member when four eyes wait), until it reads approved. */
export async function approveTier(
  who: Person,
  tier: 'primary' | 'advanced',
  staff: StaffPair,
): Promise<void> {
  const view = async () => {
    const answer = await webCall<Record<string, unknown>>('GET', 'getVerification', {}, who.token);
    expect(answer.code, answer.msg).toBe(1);
    return answer.data[tier] as { submission_id: string; state: string; documents: Array<{ slot: string }> };
  };
  const submitted = await view();
  const decisions = submitted.documents.map((d) => ({ slot: d.slot, decision: 'approve' }));
  const decide = (token: string) =>
    staffCall<{ awaiting_second: boolean }>(
      'POST',
      'verification/decide',
      { id: submitted.submission_id, decisions } as never,
      token,
    );
  const first = await decide(staff.first);
  expect(first.code, first.msg).toBe(1);
  if (first.data.awaiting_second) {
    const second = await decide(staff.second);
    expect(second.code, second.msg).toBe(1);
  }
  await until(
    async () => (await view()).state,
    (state) => state === 'approved',
    `${who.email} ${tier} approved`,
  );
}

/** Real-name verification (and advanced, when asked) through the real calls, decided by staff. */
export async function verify(
  who: Person,
  n: number,
  staff: StaffPair,
  options: { advanced?: boolean } = {},
): Promise<void> {
  const files: Record<string, string> = {};
  for (const [slot, hue] of [
    ['front', 20 + n * 90],
    ['back', 50 + n * 90],
    ['handheld', 80 + n * 90],
  ] as const)
    files[`${slot}_file_id`] = await uploadFile(who.token, 'verification', hue, `${slot} ${n}`);
  const sent = await webCall(
    'POST',
    'submitPrimaryVerification',
    { real_name: who.name, id_type: '1', id_number: `V${String(Date.now()).slice(-7)}${n}`, ...files },
    who.token,
  );
  expect(sent.code, sent.msg).toBe(1);
  await approveTier(who, 'primary', staff);
  if (!options.advanced) return;
  const advanced = await webCall(
    'POST',
    'submitAdvancedVerification',
    {
      occupation: 'employed',
      monthly_income: '5k_20k',
      source_of_wealth: 'salary',
      expected_investment: '1k_10k',
      asset_bank_file_id: await uploadFile(who.token, 'verification', 200 + n * 40, `bank ${n}`),
    },
    who.token,
  );
  expect(advanced.code, advanced.msg).toBe(1);
  await approveTier(who, 'advanced', staff);
}

/** Available and frozen of a currency in the customer's spot account (normalized decimals). */
export async function spotBalance(token: string, currency: string) {
  const answer = await webCall<{
    accounts: Array<{ rows: Array<{ currency: string; available: string; frozen: string }> }>;
  }>('GET', 'getAsset2', { type: 'spot' }, token);
  expect(answer.code, answer.msg).toBe(1);
  const row = answer.data.accounts[0]?.rows.find((r) => r.currency === currency);
  return { available: dec(row?.available ?? '0'), frozen: dec(row?.frozen ?? '0') };
}

/** A confirmed USDT deposit, as custody reports it; waits until it is available. */
export async function depositUsdt(token: string, amount: string): Promise<void> {
  const before = (await spotBalance(token, 'USDT')).available;
  const address = await webCall<{ address: string }>(
    'GET',
    'getRechargeAddress',
    { currency: 'USDT', chain: 'ERC20' },
    token,
  );
  expect(address.code, address.msg).toBe(1);
  const credited = await postCustodyWebhook(
    'webhook',
    usdtDeposit({
      address: address.data.address,
      amount,
      txid: `kyc${Date.now()}${Math.random().toString(36).slice(2, 8)}`,
    }),
    custodySecret(),
  );
  expect(credited.code, credited.msg).toBe(1);
  await until(
    async () => (await spotBalance(token, 'USDT')).available,
    (now) => now !== before,
    `${amount} USDT credited`,
  );
}
