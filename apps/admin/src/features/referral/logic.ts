import { REFERRAL_DEPTH_MAX, referralIncome } from '@bourse/risk';

/** Pure helpers of the referral screens. */

/** "20" → 2000, "12.5" → 1250, "0.25" → 25 basis points; null when it is not a percentage 0–100 with ≤ 2 decimals. */
export function bpsOfPercent(text: string): number | null {
  const m = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!m) return null;
  const bps = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return bps <= 10_000 ? bps : null;
}

/** 2000 → "20", 1250 → "12.5": basis points as a percentage, without a float. */
export function percentOfBps(bps: number): string {
  const whole = Math.floor(bps / 100);
  const rest = bps % 100;
  return rest === 0 ? String(whole) : `${whole}.${String(rest).padStart(2, '0').replace(/0$/, '')}`;
}

/** What a 1 USDT fee (8 decimals) pays per level under these shares: the server's own maths. */
export function previewOneUsdt(
  sharesBps: readonly number[],
  depth: number,
): { level: number; amount: string }[] {
  const total = sharesBps.reduce((s, b) => s + b, 0);
  if (total > 10_000) return [];
  const one = 100_000_000n;
  const lines = referralIncome({
    feeUnits: one,
    inviters: sharesBps.map((_, i) => `level${i + 1}`),
    sharesBps,
    depth: Math.min(depth, REFERRAL_DEPTH_MAX),
  });
  return lines.map((l) => {
    const whole = l.amountUnits / one;
    const frac = (l.amountUnits % one).toString().padStart(8, '0').replace(/0+$/, '');
    return { level: l.level, amount: frac ? `${whole}.${frac}` : `${whole}` };
  });
}
