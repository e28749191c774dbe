import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPage, createAdministrator, registerCustomer, sql, staffApiToken } from './api.ts';
import { LANGS, launch, screenshot, signedInPage, switchLang, type ViewportName } from './browser.ts';
import { expectNoRawKeys } from './pages.ts';

/**
 * A bank deposit's remittance proof in Chromium (issue 15): the customer sends it through the
 * shared upload field (`web/uploadDocument`, purpose `deposit_proof`) on the deposit sheet and
 * submits the deposit with the stored file's id; the file is claimed by the deposit, kept per the
 * jurisdiction's retention, and nothing is written to the old `deposits_proof` table. A finance
 * staff member opens the proof from the deposits queue through its signed link, and that view is in
 * the audit log. Screenshots of the bank form with its proof (1920×1080 and 390×844, en/zh/ft) and
 * of the proof in the back office.
 */
let browser: Browser;
let finance = '';
let financeId = '';
const pageErrors: string[] = [];
const customer = { email: `proof-e2e-${Date.now()}@example.com`, token: '', id: '' };

/** A JPEG that looks like a bank's remittance slip. */
async function slip(hue: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="420">
    <rect width="600" height="420" fill="hsl(${hue},30%,92%)"/>
    <rect x="30" y="30" width="540" height="360" rx="10" fill="#fff" stroke="hsl(${hue},40%,40%)" stroke-width="3"/>
    <text x="60" y="80" font-size="28" font-family="sans-serif" fill="#234">REMITTANCE</text>
    ${[0, 1, 2, 3, 4, 5].map((i) => `<rect x="60" y="${110 + i * 38}" width="${460 - i * 40}" height="14" rx="7" fill="#9aa"/>`).join('')}
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

/** Waits until an image has really loaded (its short-lived link answered with an image). */
async function loaded(page: Page, testId: string) {
  await page.waitForFunction((id) => {
    const img = document.querySelector<HTMLImageElement>(`[data-testid="${id}"]`);
    return Boolean(img?.complete) && (img?.naturalWidth ?? 0) > 0;
  }, testId);
}

/** The deposit sheet in bank mode, from the assets overview. */
async function bankForm(viewport: ViewportName, lang: (typeof LANGS)[number]): Promise<Page> {
  const page = await signedInPage(browser, {
    viewport,
    lang,
    token: customer.token,
    path: '/table1',
    pageErrors,
  });
  await page.getByTestId(viewport === 'desktop' ? 'action-deposit-USDT' : 'action-deposit-m-USDT').click();
  const sheet = page.getByTestId('deposit-sheet');
  await sheet.getByTestId('deposit-mode').locator('label').nth(1).click();
  await sheet.getByTestId('bank-amount').waitFor();
  return page;
}

async function chooseProof(page: Page, hue: number) {
  await page
    .getByTestId('bank-proof-input')
    .setInputFiles({ name: 'slip.jpg', mimeType: 'image/jpeg', buffer: await slip(hue) });
  await expect.poll(() => page.getByTestId('bank-proof').getAttribute('data-state')).toBe('done');
  await loaded(page, 'bank-proof-preview');
}

beforeAll(async () => {
  browser = await launch();
  customer.token = await registerCustomer(customer.email);
  const rows = await sql<{ id: string }>('select id from accounts_customer where email = $1', [
    customer.email,
  ]);
  customer.id = rows[0]?.id ?? '';
  const staff = await createAdministrator('proof', 'Finance e2e', ['finance']);
  finance = await staffApiToken(staff);
  const members = await sql<{ id: string }>('select id from staff_member where email = $1', [staff.email]);
  financeId = members[0]?.id ?? '';
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

describe('remittance proof through the upload pipeline', () => {
  it('the customer uploads the proof with the shared field and submits; finance views it, audited', async () => {
    const page = await bankForm('desktop', 'en');
    // Submitting without a proof names what is missing; nothing is sent.
    await page.getByTestId('bank-amount').fill('250');
    await page.getByTestId('bank-reference').fill('E2E-PROOF-1');
    await page.getByTestId('bank-submit').click();
    await expect
      .poll(() => page.getByTestId('bank-proof-error').textContent())
      .toContain('Upload a photo or scan of the remittance slip');
    await chooseProof(page, 200);
    await page.getByTestId('bank-submit').click();
    await page.getByTestId('bank-deposit-done').waitFor();
    await page.context().close();

    const deposits = await sql<{ id: string; proof_id: string }>(
      'select id, proof_id from deposits_bank where customer_id = $1',
      [customer.id],
    );
    expect(deposits).toHaveLength(1);
    const deposit = deposits[0] as { id: string; proof_id: string };
    const files = await sql<{ purpose: string; attached_ref: string; retain_until: Date; created_at: Date }>(
      'select purpose, attached_ref, retain_until, created_at from uploads_file where id = $1',
      [deposit.proof_id],
    );
    expect(files[0]).toMatchObject({ purpose: 'deposit_proof', attached_ref: `deposit:${deposit.id}` });
    const keptDays =
      ((files[0]?.retain_until.getTime() ?? 0) - (files[0]?.created_at.getTime() ?? 0)) / 86_400_000;
    expect(keptDays).toBeGreaterThan(1824);
    expect(keptDays).toBeLessThan(1826);
    const old = await sql<{ n: string }>(
      'select count(*)::text as n from deposits_proof where customer_id = $1',
      [customer.id],
    );
    expect(old[0]?.n).toBe('0');

    // Finance staff open the proof from the queue: a signed link made for them, the view audited.
    const office = (await adminPage(browser, 'desktop', 'en', finance, pageErrors)).page;
    await office.goto('/admin/deposits');
    const row = office.getByTestId('deposits-bank').locator('tr', { hasText: 'E2E-PROOF-1' });
    await row.getByTestId('deposit-proof').click();
    await loaded(office, 'deposit-proof-image');
    expect(await office.getByTestId('deposit-proof-image').getAttribute('src')).toContain(
      `/api/files/${deposit.proof_id}?`,
    );
    const views = await sql<{ action: string; actor_id: string }>(
      'select action, actor_id from staff_audit where target_id = $1',
      [deposit.proof_id],
    );
    expect(views).toEqual([{ action: 'document.view', actor_id: financeId }]);
    await screenshot(office, 'deposit-proof-admin-desktop-en');
    await office.context().close();
    expect(pageErrors).toEqual([]);
  }, 90_000);

  // One profile per size: the bank form with its proof, shown in en, zh and ft in turn (the language
  // switched in place), a screenshot of each.
  for (const viewport of ['desktop', 'mobile'] as const) {
    it(`the bank form with its proof at ${viewport} in en, zh and ft`, async () => {
      const page = await bankForm(viewport, 'en');
      await chooseProof(page, viewport === 'desktop' ? 120 : 300);
      for (const lang of LANGS) {
        await switchLang(page, lang);
        await page.getByTestId('bank-amount').waitFor();
        await expectNoRawKeys(page, ['deposit', 'kyc', 'common']);
        await page.getByTestId('bank-submit').scrollIntoViewIfNeeded();
        await screenshot(page, `deposit-proof-${viewport}-${lang}`);
      }
      await page.context().close();
      expect(pageErrors).toEqual([]);
    }, 90_000);
  }
});
