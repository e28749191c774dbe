import {
  type CapData,
  type CapsByRating,
  PRODUCT_CLASSES,
  type ProductClass,
  RISK_RATINGS,
  type RiskRating,
  SUITABILITY_LIMITS,
} from '@bourse/protocol';
import { USDT_SCALE } from '@bourse/risk';
import { refuse } from '../../http/refusal.ts';

/**
 * The caps a rating puts on each product class, pure: a caps table checked before it is saved
 * (whole values in range, monotone in the rating), and the decision on one request.
 */

const WHOLE_AMOUNT = /^(0|[1-9][0-9]{0,9})$/;

/** Whole USDT → minor units. */
export function amountUnits(maxAmount: string): bigint {
  return BigInt(maxAmount) * 10n ** BigInt(USDT_SCALE);
}

/** A caps table fit to save (SUITABILITY_CAP_INVALID / SUITABILITY_CAP_NOT_MONOTONE naming the cell). */
export function checkCaps(input: unknown): CapsByRating {
  const given = (input ?? {}) as Record<string, Record<string, Partial<CapData>> | undefined>;
  for (const r of Object.keys(given))
    if (!(RISK_RATINGS as readonly string[]).includes(r)) refuse('SUITABILITY_CAP_INVALID', { field: r });
  const out = {} as CapsByRating;
  for (const rating of RISK_RATINGS) {
    const row = given[rating];
    if (!row || typeof row !== 'object') refuse('SUITABILITY_CAP_INVALID', { field: rating });
    for (const p of Object.keys(row))
      if (!(PRODUCT_CLASSES as readonly string[]).includes(p))
        refuse('SUITABILITY_CAP_INVALID', { field: `${rating}.${p}` });
    out[rating] = {} as Record<ProductClass, CapData>;
    for (const product of PRODUCT_CLASSES) {
      const cell = row[product];
      const at = `${rating}.${product}`;
      if (!cell || typeof cell !== 'object') refuse('SUITABILITY_CAP_INVALID', { field: at });
      const { max_leverage: lev, max_amount: amount } = cell;
      if (product === 'contracts') {
        if (
          typeof lev !== 'number' ||
          !Number.isInteger(lev) ||
          lev < 0 ||
          lev > SUITABILITY_LIMITS.leverageMax
        )
          refuse('SUITABILITY_CAP_INVALID', { field: `${at}.max_leverage` });
      } else if (lev !== null && lev !== undefined) {
        refuse('SUITABILITY_CAP_INVALID', { field: `${at}.max_leverage` });
      }
      if (
        typeof amount !== 'string' ||
        !WHOLE_AMOUNT.test(amount) ||
        BigInt(amount) > BigInt(SUITABILITY_LIMITS.amountMax)
      )
        refuse('SUITABILITY_CAP_INVALID', { field: `${at}.max_amount` });
      out[rating][product] = {
        max_leverage: product === 'contracts' ? (lev as number) : null,
        max_amount: amount,
      };
    }
  }
  // not_assessed ≤ conservative ≤ balanced ≤ aggressive, cell by cell.
  for (let k = 1; k < RISK_RATINGS.length; k += 1) {
    const lower = RISK_RATINGS[k - 1] as RiskRating;
    const rating = RISK_RATINGS[k] as RiskRating;
    for (const product of PRODUCT_CLASSES) {
      const a = out[lower][product];
      const b = out[rating][product];
      if ((b.max_leverage ?? 0) < (a.max_leverage ?? 0))
        refuse('SUITABILITY_CAP_NOT_MONOTONE', { field: `${rating}.${product}.max_leverage` });
      if (BigInt(b.max_amount) < BigInt(a.max_amount))
        refuse('SUITABILITY_CAP_NOT_MONOTONE', { field: `${rating}.${product}.max_amount` });
    }
  }
  return out;
}

export type CapRequest = { productClass: ProductClass; amountUnits?: bigint; leverage?: number };

/** The field an amount is capped under, per product class (its name in `field.*`). */
export const AMOUNT_FIELD: Record<ProductClass, string> = {
  contracts: 'margin',
  options: 'stake',
  earn: 'purchase_amount',
  launchpad: 'purchase_amount',
  loans: 'purchase_amount',
};

/** Refuses a request above the rating's cap: RATING_PRODUCT_BLOCKED at a zero cap, else RATING_CAP_EXCEEDED naming rating, product, cap and field. */
export function enforce(rating: RiskRating, cap: CapData, req: CapRequest): void {
  const product = req.productClass;
  const blocked = cap.max_amount === '0' || (product === 'contracts' && cap.max_leverage === 0);
  if (blocked) refuse('RATING_PRODUCT_BLOCKED', { rating, product });
  if (req.leverage !== undefined && cap.max_leverage !== null && req.leverage > cap.max_leverage)
    refuse('RATING_CAP_EXCEEDED', { rating, product, cap: `${cap.max_leverage}×`, field: 'leverage' });
  if (req.amountUnits !== undefined && req.amountUnits > amountUnits(cap.max_amount))
    refuse('RATING_CAP_EXCEEDED', {
      rating,
      product,
      cap: `${cap.max_amount} USDT`,
      field: AMOUNT_FIELD[product],
    });
}
