/** The adjustments feature still imports its row type from here; the shapes live in @bourse/protocol. */
export type { AdjustmentView as Adjustment } from '@bourse/protocol';
