import type { ReactNode } from 'react';

/** The finance products as pictures: the home page's tiles and the header's Products menu. */
export type ProductIconKey = 'custody' | 'vip' | 'etf' | 'launchpad' | 'loans' | 'c2c';

/** Line drawings on the 24×24 grid of components/icons.tsx (currentColor, 1.8 stroke). */
const DRAWINGS: Record<ProductIconKey, ReactNode> = {
  // A safe: principal locked for a term.
  custody: (
    <>
      <rect x="3" y="4" width="18" height="15" rx="2" />
      <circle cx="12" cy="11.5" r="3.5" />
      <path d="M12 8v1M12 14v1M8.5 11.5h1M14.5 11.5h1M7 19v2M17 19v2" />
    </>
  ),
  // A crown: products for VIP levels.
  vip: (
    <>
      <path d="m3 7 4.5 4.5L12 5l4.5 6.5L21 7l-2 11H5L3 7Z" />
      <path d="M5 21h14" />
    </>
  ),
  // A pie: a basket split by target weights.
  etf: (
    <>
      <path d="M12 3a9 9 0 1 0 9 9h-9V3Z" />
      <path d="M15 3.5A9 9 0 0 1 20.5 9H15V3.5Z" />
    </>
  ),
  // A rocket: a new coin's launch.
  launchpad: (
    <>
      <path d="M4 13a8 8 0 0 1 7 7 6 6 0 0 0 3-5 9 9 0 0 0 6-8 3 3 0 0 0-3-3 9 9 0 0 0-8 6 6 6 0 0 0-5 3" />
      <path d="M7 14a6 6 0 0 0-3 6 6 6 0 0 0 6-3" />
      <circle cx="15" cy="9" r="1" />
    </>
  ),
  // A banknote and a calendar tick: borrowed money repaid by a date.
  loans: (
    <>
      <rect x="3" y="6" width="18" height="12" rx="2" />
      <circle cx="12" cy="12" r="2.5" />
      <path d="M6 9v.01M18 15v.01" />
    </>
  ),
  // Two arrows trading places: coins one way, a bank transfer the other.
  c2c: (
    <>
      <path d="M4 8h14l-3-3M20 16H6l3 3" />
      <circle cx="7" cy="8" r="0.5" />
    </>
  ),
};

/** A product's picture; decorative (the product's name is always beside it), so hidden from assistive tech. */
export function ProductIcon({ product, size = 20 }: { product: ProductIconKey; size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      data-icon={product}
    >
      {DRAWINGS[product]}
    </svg>
  );
}
