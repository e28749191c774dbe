import type { Shape } from '../shape.ts';
import type { proofEn } from './proof.en.ts';

/** The `proof` namespace, 繁體中文. */
export const proofFt: Shape<typeof proofEn> = {
  title: '儲備證明',
};
