import type { Shape } from '../shape.ts';
import type { adminEn } from './admin.en.ts';

/** The `admin` namespace, 简体中文. */
export const adminZh: Shape<typeof adminEn> = {
  title: '管理后台',
};
