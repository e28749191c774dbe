import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils';

/**
 * A Merkle sum tree over customer balances of one currency (proof of liabilities). Pure and
 * browser-safe: no I/O, no clock, no randomness, no `node:` imports; amounts are bigint minor units.
 * The construction and the attacks it prevents are described in ../README.md.
 */

/** Hex of a 32-byte SHA-256 digest (64 lower-case characters). */
export type Hex = string;

/** One customer's balance in one currency, as it enters the tree. */
export type Leaf = {
  /** Salted, per-snapshot hash of the customer id (`customerLeafId`): never the id or email itself. */
  id: Hex;
  /** 32 random bytes per leaf and snapshot, given only to the leaf's owner: hides the leaf from neighbours. */
  nonce: Hex;
  /** The currency code; part of the leaf hash, so a leaf cannot be replayed into another currency's tree. */
  currency: string;
  /** Minor units, never negative. */
  balance: bigint;
};

/** A node of the tree: its hash and the sum of the balances below it. */
export type TreeNode = { hash: Hex; sum: bigint };

/** One step of a path, from the leaf upwards: the sibling at this level and on which side it sits. */
export type PathStep = { side: 'left' | 'right'; hash: Hex; sum: bigint };

export type Tree = {
  root: TreeNode;
  /** `levels[0]` are the leaves, the last level is `[root]`; odd levels are padded (see `padNode`). */
  levels: TreeNode[][];
};

/** Amounts are committed as unsigned 256-bit big-endian integers: no sum may reach 2^256. */
export const SUM_LIMIT = 1n << 256n;
/** Trees are at most 2^64 leaves deep; a longer path is malformed. */
export const MAX_DEPTH = 64;

const TAG_LEAF = 'bourse/por/leaf/v1';
const TAG_NODE = 'bourse/por/node/v1';
const TAG_PAD = 'bourse/por/pad/v1';
const TAG_EMPTY = 'bourse/por/empty/v1';
const TAG_ID = 'bourse/por/id/v1';

const HEX32 = /^[0-9a-f]{64}$/;

export class ProofError extends Error {
  override name = 'ProofError';
}

function tag(name: string): Uint8Array {
  // Every tag is followed by a zero byte and no tag contains one: no preimage of one kind is one of another.
  const text = utf8ToBytes(name);
  const out = new Uint8Array(text.length + 1);
  out.set(text);
  return out;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function u256(value: bigint): Uint8Array {
  if (typeof value !== 'bigint') throw new ProofError('amount is not a bigint');
  if (value < 0n) throw new ProofError('negative amount');
  if (value >= SUM_LIMIT) throw new ProofError('amount does not fit in 256 bits');
  const out = new Uint8Array(32);
  let rest = value;
  for (let i = 31; i >= 0; i--) {
    out[i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  return out;
}

function u32(value: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value);
  return out;
}

function hex32(value: string, what: string): Uint8Array {
  if (typeof value !== 'string' || !HEX32.test(value)) throw new ProofError(`${what} is not 32 bytes of hex`);
  return hexToBytes(value);
}

function currencyBytes(currency: string): Uint8Array {
  if (typeof currency !== 'string' || !/^[A-Z0-9]{1,16}$/.test(currency)) {
    throw new ProofError('currency must be 1–16 upper-case letters or digits');
  }
  const text = utf8ToBytes(currency);
  return concat([Uint8Array.of(text.length), text]);
}

/** The hash of a leaf: H(leaf tag, currency, id, nonce, balance). Throws on a negative balance. */
export function leafHash(leaf: Leaf): Hex {
  return bytesToHex(
    sha256(
      concat([
        tag(TAG_LEAF),
        currencyBytes(leaf.currency),
        hex32(leaf.id, 'leaf id'),
        hex32(leaf.nonce, 'leaf nonce'),
        u256(leaf.balance),
      ]),
    ),
  );
}

export function leafNode(leaf: Leaf): TreeNode {
  return { hash: leafHash(leaf), sum: leaf.balance };
}

/**
 * A parent: H(node tag, left hash, left sum, right hash, right sum), sum = left + right. Both child
 * sums are inside the hash (not only their total), so no one can shift value between siblings.
 */
export function parentNode(left: TreeNode, right: TreeNode): TreeNode {
  const sum = left.sum + right.sum;
  u256(sum);
  const hash = sha256(
    concat([
      tag(TAG_NODE),
      hex32(left.hash, 'left hash'),
      u256(left.sum),
      hex32(right.hash, 'right hash'),
      u256(right.sum),
    ]),
  );
  return { hash: bytesToHex(hash), sum };
}

/**
 * The node that pads a level with an odd number of nodes: a fixed hash per level and a sum of zero.
 * Duplicating the last node (as Bitcoin does) would count its balance twice; a zero-sum pad adds nothing.
 */
export function padNode(level: number): TreeNode {
  return { hash: bytesToHex(sha256(concat([tag(TAG_PAD), u32(level)]))), sum: 0n };
}

/** The root of a tree without leaves. */
export function emptyRoot(): TreeNode {
  return { hash: bytesToHex(sha256(tag(TAG_EMPTY))), sum: 0n };
}

/** How many levels of siblings a tree of `leafCount` leaves has (the length of every path). */
export function depthFor(leafCount: number): number {
  if (!Number.isSafeInteger(leafCount) || leafCount < 0) throw new ProofError('bad leaf count');
  let depth = 0;
  while (2 ** depth < leafCount) depth++;
  return depth;
}

/**
 * A customer's leaf id for one snapshot: H(id tag, salt, customer id). The salt is new for every
 * snapshot, so leaf ids cannot be linked across snapshots, and the id alone names no one.
 */
export function customerLeafId(salt: Hex, customerId: string): Hex {
  if (typeof customerId !== 'string' || customerId.length === 0) throw new ProofError('empty customer id');
  return bytesToHex(sha256(concat([tag(TAG_ID), hex32(salt, 'salt'), utf8ToBytes(customerId)])));
}

/** Builds the tree over `leaves` in the given order. Throws `ProofError` on a negative or malformed leaf. */
export function build(leaves: readonly Leaf[]): Tree {
  if (leaves.length === 0) return { root: emptyRoot(), levels: [] };
  const currency = leaves[0]?.currency;
  let level: TreeNode[] = leaves.map((leaf) => {
    if (leaf.currency !== currency) throw new ProofError('every leaf of a tree has the same currency');
    return leafNode(leaf);
  });
  const levels: TreeNode[][] = [];
  let height = 0;
  while (level.length > 1) {
    if (level.length % 2 === 1) level.push(padNode(height));
    levels.push(level);
    const next: TreeNode[] = [];
    for (let i = 0; i < level.length; i += 2)
      next.push(parentNode(level[i] as TreeNode, level[i + 1] as TreeNode));
    level = next;
    height++;
  }
  levels.push(level);
  return { root: level[0] as TreeNode, levels };
}

/** Where the siblings of leaf `index` sit: one (level, index, side) per level, from the leaf upwards. */
export function siblingPositions(
  index: number,
  depth: number,
): Array<{ level: number; index: number; side: 'left' | 'right' }> {
  if (!Number.isSafeInteger(index) || index < 0) throw new ProofError('bad leaf index');
  const out: Array<{ level: number; index: number; side: 'left' | 'right' }> = [];
  let at = index;
  for (let level = 0; level < depth; level++) {
    const sibling = at ^ 1;
    out.push({ level, index: sibling, side: sibling < at ? 'left' : 'right' });
    at = Math.floor(at / 2);
  }
  return out;
}

/** The path of leaf `index`: its sibling at every level, from the leaf up to (not including) the root. */
export function proofFor(tree: Tree, index: number): PathStep[] {
  const leafCount = tree.levels[0]?.length ?? 0;
  if (!Number.isSafeInteger(index) || index < 0 || index >= leafCount) throw new ProofError('no such leaf');
  const depth = tree.levels.length - 1;
  return siblingPositions(index, depth).map(({ level, index: at, side }) => {
    const node = tree.levels[level]?.[at];
    if (!node) throw new ProofError('tree levels are incomplete');
    return { side, hash: node.hash, sum: node.sum };
  });
}

/** One step of a verification, as the app shows it: the sibling and the parent it makes. */
export type VerifyStep = {
  level: number;
  side: 'left' | 'right';
  siblingHash: Hex;
  siblingSum: bigint;
  hash: Hex;
  sum: bigint;
};

export type VerifyFailure =
  | 'malformed_leaf'
  | 'malformed_path'
  | 'negative_sum'
  | 'sum_overflow'
  | 'wrong_depth'
  | 'root_sum_mismatch'
  | 'root_hash_mismatch';

export type Verification = {
  ok: boolean;
  /** The leaf's own node, then one step per level as far as the check got. */
  leaf: TreeNode | null;
  steps: VerifyStep[];
  failure: VerifyFailure | null;
};

/**
 * Recomputes the root from a leaf and its path and compares it with the published root, showing each
 * step. Fails on a negative leaf or sibling sum, on a sum that does not fit, on a path of the wrong
 * depth (when `leafCount` is given), and on any difference from the published root's hash or sum.
 */
export function verifyDetailed(
  leaf: Leaf,
  path: readonly PathStep[],
  root: TreeNode,
  options: { leafCount?: number } = {},
): Verification {
  let current: TreeNode;
  try {
    current = leafNode(leaf);
  } catch {
    return {
      ok: false,
      leaf: null,
      steps: [],
      failure: leaf.balance < 0n ? 'negative_sum' : 'malformed_leaf',
    };
  }
  const steps: VerifyStep[] = [];
  const fail = (failure: VerifyFailure): Verification => ({
    ok: false,
    leaf: leafNode(leaf),
    steps,
    failure,
  });
  if (!Array.isArray(path) || path.length > MAX_DEPTH) return fail('malformed_path');
  if (options.leafCount !== undefined) {
    let expected: number;
    try {
      expected = depthFor(options.leafCount);
    } catch {
      return fail('wrong_depth');
    }
    if (path.length !== expected) return fail('wrong_depth');
  }
  for (const [level, step] of path.entries()) {
    if (!step || (step.side !== 'left' && step.side !== 'right')) return fail('malformed_path');
    if (typeof step.sum !== 'bigint' || typeof step.hash !== 'string' || !HEX32.test(step.hash)) {
      return fail('malformed_path');
    }
    if (step.sum < 0n) return fail('negative_sum');
    if (step.sum >= SUM_LIMIT || current.sum + step.sum >= SUM_LIMIT) return fail('sum_overflow');
    const sibling = { hash: step.hash, sum: step.sum };
    const parent = step.side === 'left' ? parentNode(sibling, current) : parentNode(current, sibling);
    steps.push({
      level,
      side: step.side,
      siblingHash: step.hash,
      siblingSum: step.sum,
      hash: parent.hash,
      sum: parent.sum,
    });
    current = parent;
  }
  if (typeof root.sum !== 'bigint' || root.sum < 0n) return fail('negative_sum');
  if (current.sum !== root.sum) return fail('root_sum_mismatch');
  if (current.hash !== root.hash) return fail('root_hash_mismatch');
  return { ok: true, leaf: leafNode(leaf), steps, failure: null };
}

/** True when `path` leads from `leaf` to exactly `root` with every partial sum non-negative. */
export function verify(
  leaf: Leaf,
  path: readonly PathStep[],
  root: TreeNode,
  options: { leafCount?: number } = {},
): boolean {
  return verifyDetailed(leaf, path, root, options).ok;
}
