import type { Ratio } from './ratio.ts';

export type OptionDirectionInput = 'up' | 'down';

/**
 * Settles an up/down option on its recorded opening and settlement prices: `up` wins when
 * settle > open, `down` when settle < open; settle = open is a tie whatever the direction.
 * won → stake + floor(stake × payoutRate) (the profit is a payout, rounded toward the platform);
 * tied → the stake back; lost → 0.
 */
export function optionOutcome(
  direction: OptionDirectionInput,
  openUnits: bigint,
  settleUnits: bigint,
  stakeUnits: bigint,
  payoutRate: Ratio,
): { status: 'won' | 'lost' | 'tied'; payoutUnits: bigint } {
  if (direction !== 'up' && direction !== 'down') {
    throw new RangeError(`direction must be up or down, got ${String(direction)}`);
  }
  if (typeof stakeUnits !== 'bigint' || stakeUnits < 0n)
    throw new RangeError('stakeUnits must be a bigint ≥ 0');
  if (payoutRate.den <= 0n || payoutRate.num < 0n) {
    throw new RangeError('payoutRate must be a non-negative ratio with a positive denominator');
  }
  if (settleUnits === openUnits) return { status: 'tied', payoutUnits: stakeUnits };
  const up = settleUnits > openUnits;
  if (up !== (direction === 'up')) return { status: 'lost', payoutUnits: 0n };
  // floor: stake and rate are ≥ 0, so bigint division (truncation) is the floor.
  return { status: 'won', payoutUnits: stakeUnits + (stakeUnits * payoutRate.num) / payoutRate.den };
}
