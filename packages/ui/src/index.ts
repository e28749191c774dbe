export { CopyField, type CopyFieldProps } from './CopyField.tsx';
export { ResetIcon, RotateIcon, ZoomInIcon, ZoomOutIcon } from './icons.tsx';
export {
  type FormatNumOptions,
  formatNum,
  Num,
  type NumKind,
  type NumProps,
  NumProvider,
  type NumSettings,
  type NumValue,
  type Rise,
  type Trend,
  trendColor,
  trendOf,
  useNumSettings,
} from './Num.tsx';
export { Sheet, type SheetProps } from './Sheet.tsx';
