import { allocateProRata, buildLaunchpadTrees, type Commitment, proofFor, type Tree } from '@bourse/proof';
import type {
  LaunchpadAllocationData,
  LaunchpadEligibilityData,
  LaunchpadLeafData,
  LaunchpadProjectData,
  LaunchpadSubscriptionData,
  SubscriptionProofData,
} from '@bourse/protocol';

/**
 * What the mocked API answers in the launchpad tests, built from the protocol types. The allocation
 * and its proof are computed with `@bourse/proof` itself (the server's formula and trees), so a proof
 * here is a real one: every hash is what the browser recomputes.
 */
export const DAY_MS = 86_400_000;
export const NOW = Date.UTC(2026, 5, 10, 8, 0, 0);

export function project(overrides: Partial<LaunchpadProjectData> = {}): LaunchpadProjectData {
  return {
    project_id: 'lpd_lumen',
    coin: 'LUM',
    coin_scale: 6,
    name: 'Lumen Network',
    issuer: 'Lumen Labs Ltd.',
    description: 'A settlement network for small payments.',
    whitepaper_url: 'https://lumen.example/whitepaper.pdf',
    risk_warning: 'New coins can lose all their value. Only subscribe with money you can afford to lose.',
    state: 'open',
    mode: 'pro_rata',
    price: '0.5',
    pay_currency: 'USDT',
    lot_size: '10',
    circulation: '10000000',
    supply: '1000',
    soft_cap: '200',
    per_customer_cap: '300',
    min_subscription: '10',
    margin_ratio: '100',
    fee_rate: '0.2',
    opens_at: NOW - DAY_MS,
    closes_at: NOW + 2 * DAY_MS + 3 * 3_600_000 + 4 * 60_000 + 5_000,
    listing_at: NOW + 5 * DAY_MS,
    lockup_days: 30,
    release_at: NOW + 35 * DAY_MS,
    refund_hours: 48,
    eligibility: { min_tier: 'primary', min_rating: 'balanced', jurisdictions: ['permissive', 'eu_retail'] },
    // Every built-in profile asks primary verification for `launchpad` (verification seeds).
    profile_tier: 'primary',
    subscribed: '600',
    subscribers: 12,
    passed: '0',
    remaining: '400',
    progress: '60',
    sold_out: false,
    failure_reason: null,
    failed_at: null,
    refund_deadline_at: null,
    announced_at: NOW - 3 * DAY_MS,
    allocation: null,
    market_symbol: null,
    market_opened_at: null,
    ...overrides,
  };
}

export function eligibility(overrides: Partial<LaunchpadEligibilityData> = {}): LaunchpadEligibilityData {
  return {
    eligible: true,
    refusal: null,
    available: '1250.5',
    may_subscribe: '300',
    held: '0',
    ...overrides,
  };
}

/** 32 bytes of hex from a small number (leaf ids and nonces of the fixtures). */
const hex = (n: number) => n.toString(16).padStart(64, '0');

/**
 * Five passed commitments over a supply of 100 lots, capped at 30: the first (200 lots) is held at
 * the cap, the others share S′ = 70 of C′ = 121 lots. Mine (seq 3, 37 lots) gets ⌊37 × 70 / 121⌋ = 21
 * with remainder 49, and the remainder rule hands out the two lots left to (112, #2) and (49, #3):
 * mine is the last cut, so 22.
 */
export const COMMITMENTS: Commitment[] = [
  { key: 'c1', seq: 1, lots: 200n },
  { key: 'c2', seq: 2, lots: 50n },
  { key: 'me', seq: 3, lots: 37n },
  { key: 'c4', seq: 4, lots: 23n },
  { key: 'c5', seq: 5, lots: 11n },
];
const SUPPLY_LOTS = 100n;
const CAP_LOTS = 30n;

function wireLeaf(tree: Tree, index: number, leaf: { id: string; nonce: string; tag: string; lots: bigint }) {
  const out: LaunchpadLeafData = {
    id: leaf.id,
    nonce: leaf.nonce,
    currency: leaf.tag,
    balance: leaf.lots.toString(),
    path: proofFor(tree, index).map((s) => ({ side: s.side, hash: s.hash, sum: s.sum.toString() })),
  };
  return out;
}

function buildAllocation() {
  const result = allocateProRata(COMMITMENTS, SUPPLY_LOTS, CAP_LOTS);
  const rows = COMMITMENTS.map((c, i) => ({
    key: c.key,
    id: hex(1000 + i),
    commitNonce: hex(2000 + i),
    allotNonce: hex(3000 + i),
    committed: c.lots,
    allocated: result.lots.get(c.key) ?? 0n,
  }));
  const trees = buildLaunchpadTrees(rows);
  const committed = COMMITMENTS.reduce((sum, c) => sum + c.lots, 0n);
  const published: LaunchpadAllocationData = {
    mode: 'pro_rata',
    supply_lots: SUPPLY_LOTS.toString(),
    cap_lots: CAP_LOTS.toString(),
    commitments: COMMITMENTS.length,
    committed_lots: committed.toString(),
    capped: result.capped,
    capped_committed_lots: result.cappedCommitted.toString(),
    fill_numerator: result.fillNumerator.toString(),
    fill_denominator: result.fillDenominator.toString(),
    remainder_lots: result.remainderLots.toString(),
    remainder_cut: result.remainderCut
      ? { remainder: result.remainderCut.remainder.toString(), seq: result.remainderCut.seq }
      : null,
    allocated_lots: result.allocated.toString(),
    commitment_root: {
      hash: trees.commitment.root.hash,
      sum: trees.commitment.root.sum.toString(),
      leaf_count: rows.length,
    },
    allocation_root: {
      hash: trees.allocation.root.hash,
      sum: trees.allocation.root.sum.toString(),
      leaf_count: rows.length,
    },
    published_at: NOW - DAY_MS,
  };
  const index = trees.index.get('me') ?? 0;
  const me = rows[index] as (typeof rows)[number];
  const proof: SubscriptionProofData = {
    project_id: 'lpd_nova',
    coin: 'NOVA',
    lot_size: '10',
    seq: 3,
    commitment: wireLeaf(trees.commitment, index, {
      id: me.id,
      nonce: me.commitNonce,
      tag: 'LPCOMMIT',
      lots: me.committed,
    }),
    allocation: wireLeaf(trees.allocation, index, {
      id: me.id,
      nonce: me.allotNonce,
      tag: 'LPALLOT',
      lots: me.allocated,
    }),
    published,
  };
  return { published, proof };
}

const BUILT = buildAllocation();

/** The published figures of the pro-rata project and my (genuine) proof in it. */
export const ALLOCATION: LaunchpadAllocationData = BUILT.published;
export const PROOF: SubscriptionProofData = BUILT.proof;

/** A pro-rata project after allocation: oversubscribed ×3.21, the figures published. */
export const PRO_RATA_ALLOCATED = project({
  project_id: 'lpd_nova',
  coin: 'NOVA',
  name: 'Nova Network',
  issuer: 'Nova Labs Ltd.',
  state: 'distributed',
  opens_at: NOW - 10 * DAY_MS,
  closes_at: NOW - 3 * DAY_MS,
  listing_at: NOW - 2 * DAY_MS,
  release_at: NOW + 28 * DAY_MS,
  subscribed: '3210',
  passed: '3210',
  remaining: '0',
  progress: '321',
  subscribers: 5,
  allocation: ALLOCATION,
});

/** A first-come project with nothing left. */
export const FIRST_COME_SOLD_OUT = project({
  project_id: 'lpd_orbit',
  coin: 'ORB',
  name: 'Orbit Pay',
  mode: 'first_come',
  subscribed: '1000',
  remaining: '0',
  progress: '100',
  sold_out: true,
});

/** A project that missed its soft cap: refunds due within 48 hours. */
export const FAILED = project({
  project_id: 'lpd_dim',
  coin: 'DIM',
  name: 'Dim Protocol',
  state: 'failed',
  opens_at: NOW - 6 * DAY_MS,
  closes_at: NOW - DAY_MS,
  subscribed: '150',
  progress: '15',
  failure_reason: 'soft_cap_missed',
  failed_at: NOW - DAY_MS,
  refund_deadline_at: NOW + DAY_MS,
});

/** An announced project, opening in a day and a half. */
export const ANNOUNCED = project({
  project_id: 'lpd_soon',
  coin: 'SOON',
  name: 'Soon Chain',
  state: 'announced',
  opens_at: NOW + DAY_MS + 12 * 3_600_000,
  closes_at: NOW + 4 * DAY_MS,
  subscribed: '0',
  progress: '0',
  subscribers: 0,
});

export function record(overrides: Partial<LaunchpadSubscriptionData> = {}): LaunchpadSubscriptionData {
  return {
    subscription_id: 'lps_1',
    project_id: 'lpd_nova',
    project_name: 'Nova Network',
    coin: 'NOVA',
    seq: 3,
    state: 'allocated',
    quantity: '370',
    price: '0.5',
    margin: '185',
    fee_frozen: '0.37',
    frozen: '185.37',
    review_reason: null,
    allocated: '220',
    // As the server sends it: the cost alone; paid + fee_paid + refunded = frozen.
    paid: '110',
    fee_paid: '0.22',
    refunded: '75.15',
    failure_reason: null,
    token_state: 'locked',
    release_at: NOW + 28 * DAY_MS,
    released_at: null,
    created_at: NOW - 8 * DAY_MS,
    reviewed_at: NOW - 3 * DAY_MS,
    allocated_at: NOW - DAY_MS,
    refunded_at: null,
    ...overrides,
  };
}
