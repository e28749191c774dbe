import type { Shape } from '../shape.ts';
import type { adminEn } from './admin.en.ts';

/** The `admin` namespace, 繁體中文. */
export const adminFt: Shape<typeof adminEn> = {
  title: '管理後台',
};
