/** Decimal strings ↔ integer units (bigint), for order prices and sizes; no floats. */

export function scaleOf(step: string): number {
  const dot = step.indexOf('.');
  return dot < 0 ? 0 : step.length - dot - 1;
}

export function toUnits(value: string, scale: number): bigint {
  const negative = value.startsWith('-');
  const [whole = '0', frac = ''] = (negative ? value.slice(1) : value).split('.');
  const digits = `${whole}${frac.padEnd(scale, '0').slice(0, scale)}`;
  const units = BigInt(digits === '' ? '0' : digits);
  return negative ? -units : units;
}

export function fromUnits(units: bigint, scale: number): string {
  const negative = units < 0n;
  const abs = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? abs : `${abs.slice(0, -scale)}.${abs.slice(-scale)}`;
  return negative ? `-${text}` : text;
}

/** The smallest multiple of `lot` whose value at `price` reaches `notional` (all decimal strings). */
export function quantityFor(notional: string, price: string, lot: string): string {
  const ps = scaleOf(price);
  const qs = scaleOf(lot);
  const priceUnits = toUnits(price, ps);
  const lotUnits = toUnits(lot, qs);
  const target = toUnits(notional, ps + qs);
  const per = priceUnits * lotUnits;
  const lots = (target + per - 1n) / per;
  return fromUnits((lots < 1n ? 1n : lots) * lotUnits, qs);
}

/** `price` moved by `ticks` ticks (negative: down), on the tick's scale. */
export function offsetTicks(price: string, tick: string, ticks: bigint): string {
  const s = Math.max(scaleOf(tick), scaleOf(price));
  const tickUnits = toUnits(tick, s);
  const base = (toUnits(price, s) / tickUnits) * tickUnits;
  return fromUnits(base + ticks * tickUnits, s);
}

/** `price` × (1 + bps / 10,000), rounded down to a multiple of `tick`. */
export function shiftBps(price: string, tick: string, bps: bigint): string {
  const s = Math.max(scaleOf(tick), scaleOf(price));
  const tickUnits = toUnits(tick, s);
  const shifted = (toUnits(price, s) * (10_000n + bps)) / 10_000n;
  return fromUnits((shifted / tickUnits) * tickUnits, s);
}

/** a ≤ b for decimal strings. */
export function atMost(a: string, b: string): boolean {
  const s = Math.max(scaleOf(a), scaleOf(b));
  return toUnits(a, s) <= toUnits(b, s);
}
