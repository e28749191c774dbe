/** Fixed settings of the customer app. The server is the same origin; nothing here is secret. */

/** Every call is `${API_BASE}/web/<call>`. */
export const API_BASE = '/api';
export const WS_PATH = '/ws';
/** The shared client gives up after 30 s (spec 7). */
export const REQUEST_TIMEOUT_MS = 30_000;
/** Seconds before logging out and reloading when the server ends a session without saying (code 1000). */
export const SESSION_END_DEFAULT_SECONDS = 2;

/**
 * The websocket channel that carries the all-instrument tickers. The market-data issue defines the
 * channel in @bourse/protocol; until then this is the name the store listens for.
 */
export const TICKER_CHANNEL_PREFIX = 'ticker';
/** Rows on the home page's hot-pairs list. */
export const HOT_PAIRS_MAX = 10;

/** Keys of what the app remembers. localStorage survives visits; sessionStorage only this tab. */
export const STORAGE_KEYS = {
  token: 'bourse.token',
  lang: 'bourse.lang',
  /** Read before the first paint by index.html; keep the two in step. */
  colorScheme: 'bourse.color-scheme',
  rise: 'bourse.rise',
  /** Session storage: where a visitor wanted to go before the guard sent them to /login. */
  returnTo: 'bourse.return-to',
  /** Session storage: the last session ended because the demo account expired. */
  demoExpired: 'bourse.demo-expired',
} as const;

/** Where the navigation's Trade and Assets entries go (spec 2: /preciousMetal is the trade screen). */
export const NAV_PATHS = {
  home: '/',
  market: '/market',
  trade: '/preciousMetal',
  assets: '/asset',
  me: '/setting',
} as const;

/** The ETF model portfolios' screen: it opens the model named in `?model=` (balanced without one). */
export const ETF_PATH = '/etflow_buy';

/**
 * The finance products' entry screens, in the order the header's Products menu lists them: fixed-term
 * custody and VIP products (earn), each ETF model portfolio (funds), the new-coin subscription (launchpad),
 * loans (apply; the credit score and my loans are one link away), C2C (the offers).
 */
export const PRODUCT_PATHS = {
  custody: '/profit_index',
  vip: '/vip_index',
  etf_balanced: `${ETF_PATH}?model=balanced`,
  etf_low_risk: `${ETF_PATH}?model=low_risk`,
  launchpad: '/subscription',
  loans: '/credit',
  c2c: '/c2c_index',
} as const;
