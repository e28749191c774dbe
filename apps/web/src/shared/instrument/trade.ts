import type { AssetClass } from '@bourse/protocol';

export type TradeKind = 'spot' | 'contract' | 'options';
export type TradeLink = { kind: TradeKind; to: string };

/** Where an instrument can be traded: its spot market (if enabled), its contract, its options. */
export function tradeLinks(
  symbol: string,
  assetClass: AssetClass,
  lists: {
    spot: ReadonlyArray<{ symbol: string; status: string }>;
    contracts: ReadonlyArray<{ symbol: string }>;
    options: ReadonlyArray<{ symbol: string; enabled: boolean }>;
  },
): TradeLink[] {
  const q = encodeURIComponent(symbol);
  const out: TradeLink[] = [];
  if (assetClass === 'crypto_spot' && lists.spot.some((m) => m.symbol === symbol && m.status === 'enabled'))
    out.push({ kind: 'spot', to: `/currencyTrade?symbol=${q}` });
  if (lists.contracts.some((c) => c.symbol === symbol))
    out.push({ kind: 'contract', to: `/preciousMetal?symbol=${q}` });
  if (lists.options.some((o) => o.symbol === symbol && o.enabled))
    out.push({ kind: 'options', to: `/options?symbol=${q}` });
  return out;
}
