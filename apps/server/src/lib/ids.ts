import { randomBytes } from 'node:crypto';

/**
 * Prefixed, sortable ids: `usr_` + 10 characters of milliseconds + 16 of randomness, in
 * Crockford base32 (ULID layout). Sorting ids sorts by creation time; the prefix says what it is.
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export const ID_PREFIXES = [
  'usr',
  'ses',
  'vcd',
  'obx',
  'req',
  'jnl',
  'lac',
  'ins',
  'stf',
  'sss',
  'stc',
  'aud',
  'adj',
  'lvr',
  'cnt',
  'wad',
  'wpy',
  'wdr',
  'por',
  'trf',
  'dep',
  'bdp',
  'prf',
  'ord',
  'trd',
  /** Contracts (modules/contracts): orders, positions, closes, funding, margin top-ups. */
  'cor',
  'cpo',
  'ccl',
  'cfu',
  'ctu',
  /** Up/down options (modules/options). */
  'opt',
  /** Uploaded documents (modules/uploads) and verification submissions (modules/verification). */
  'upl',
  'kyc',
  /** Risk questionnaire assessments (modules/suitability). */
  'sua',
  /** Profile and security centre (modules/accounts): security events, staff answer checks. */
  'sev',
  'sac',
  /** Earn (modules/earn): funding accounts, funding requests, products, orders, redemption quotes, accrual runs. */
  'efd',
  'efr',
  'epr',
  'eor',
  'eqt',
  'ear',
  /** ETF orders (modules/funds): orders, their trades (legs), rebalances. */
  'etf',
  'flg',
  'frb',
  /** API keys (modules/apikeys) and listen keys of the bot API's user-data stream. */
  'apk',
  /** New-coin subscription (modules/launchpad): projects, subscriptions, job runs. */
  'lpp',
  'lps',
  'lpr',
  /** Loans (modules/loans): lender accounts, lender funding requests, products, loans (the contract number), repayments, score reviews. */
  'lnl',
  'lnf',
  'lnp',
  'lon',
  'lrp',
  'lsr',
  /** C2C (modules/c2c): merchants, offers, orders (the order number), messages, collection accounts. */
  'cmr',
  'cof',
  'cod',
  'cms',
  'cac',
  /** Customer service (modules/support): conversations, messages, canned replies. */
  'sup',
  'sum',
  'scr',
  /** Notices (modules/inbox): announcements. */
  'ann',
  /** Sign-in reward (modules/signin): budget funding requests. */
  'sgf',
  /** Referral (modules/referral): income lines, linked-accounts flags. */
  'rfi',
  'rff',
] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

function encodeTime(ms: number): string {
  let out = '';
  let rest = ms;
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

function encodeRandom(bytes: Buffer, offset = 0): string {
  let out = '';
  for (let i = offset; i < offset + 16; i++) out += ALPHABET[(bytes[i] ?? 0) % 32];
  return out;
}

/**
 * A new id: time prefix (for index locality and rough ordering) + 80 random bits. Pass the
 * injected clock's time wherever an id is made for a record; the wall-clock default is for ids
 * that only label (request ids, test fixtures) — an id's time never governs behaviour.
 */
export function newId(prefix: IdPrefix, nowMs: number = Date.now()): string {
  return `${prefix}_${encodeTime(nowMs)}${encodeRandom(pooledRandom(16))}`;
}

/** Random bytes drawn 4 KiB at a time (one system call per 256 ids instead of one per id). */
const RANDOM_POOL_BYTES = 4096;
let randomPool = Buffer.alloc(0);
let randomAt = 0;

/** `n` fresh random bytes: each byte of a draw is handed out once, and a used draw is never refilled. */
function pooledRandom(n: number): Buffer {
  if (randomAt + n > randomPool.length) {
    randomPool = randomBytes(Math.max(RANDOM_POOL_BYTES, n));
    randomAt = 0;
  }
  const bytes = randomPool.subarray(randomAt, randomAt + n);
  randomAt += n;
  return bytes;
}

/**
 * `count` new ids with one time prefix, their randomness from ONE draw of the system's random source
 * (a batch's ids: one `randomBytes` call instead of one per id). Each is as random as `newId`'s.
 */
export function newIds(prefix: IdPrefix, count: number, nowMs: number = Date.now()): string[] {
  if (count <= 0) return [];
  const time = `${prefix}_${encodeTime(nowMs)}`;
  const bytes = randomBytes(16 * count);
  const ids = new Array<string>(count);
  for (let i = 0; i < count; i++) ids[i] = time + encodeRandom(bytes, 16 * i);
  return ids;
}

/** Random text from an unambiguous alphabet (no 0/O, 1/I/L), for codes people type. */
export function randomCode(length: number): string {
  const alphabet = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
  const bytes = randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[(bytes[i] ?? 0) % alphabet.length];
  return out;
}
