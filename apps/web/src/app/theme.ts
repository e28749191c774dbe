import { createTheme, localStorageColorSchemeManager, type MantineColorsTuple } from '@mantine/core';
import { STORAGE_KEYS } from '../config/app.ts';

/** Bourse blue, light to dark. */
const brand: MantineColorsTuple = [
  '#e8f0ff',
  '#d0defe',
  '#a0bbf8',
  '#6c96f3',
  '#4277ef',
  '#2863ed',
  '#1858ed',
  '#0849d4',
  '#0040be',
  '#0037a8',
];

export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: { light: 6, dark: 5 },
  colors: { brand },
  defaultRadius: 'md',
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "PingFang SC", "PingFang TC", "Hiragino Sans GB", "Microsoft YaHei", "Microsoft JhengHei", "Noto Sans CJK SC", "Noto Sans CJK TC", sans-serif',
  headings: { fontWeight: '700' },
  cursorType: 'pointer',
});

/** The colour scheme lives under the key index.html reads before the first paint. */
export const colorSchemeManager = localStorageColorSchemeManager({ key: STORAGE_KEYS.colorScheme });
