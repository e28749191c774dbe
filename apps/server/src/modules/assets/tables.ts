/** The currencies the platform holds and shows (operator data; seeded with USDT, BTC, ETH, TRX). */
export type AssetsTables = {
  assets_currency: {
    currency: string;
    name: string;
    /** `<currency>/USDT` in the market catalogue; null for USDT itself (valued at 1). */
    price_symbol: string | null;
    sort: number;
    enabled: boolean;
  };
};
