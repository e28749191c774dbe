import type { Shape } from '../shape.ts';
import type { proofEn } from './proof.en.ts';

/** The `proof` namespace, 简体中文. */
export const proofZh: Shape<typeof proofEn> = {
  title: '储备证明',
};
