import {
  formatExact,
  formatFiat,
  formatMoney,
  formatPercent,
  formatPrice,
  formatQuantity,
} from '@bourse/money';
import { Text, type TextProps } from '@mantine/core';
import { createContext, type ReactNode, useContext, useMemo } from 'react';

/** Which colour a rise takes: green (the default) or red (the convention many Chinese-market customers expect). */
export type Rise = 'green' | 'red';
export type Trend = 'up' | 'down' | 'flat';
/** Decimal strings are formatted exactly (never through a float); numbers and bigints as given. */
export type NumValue = string | number | bigint;

export type NumSettings = { locale: string; rise: Rise };

const NumContext = createContext<NumSettings>({ locale: 'en-US', rise: 'green' });

export function NumProvider({ locale, rise, children }: NumSettings & { children: ReactNode }) {
  const value = useMemo(() => ({ locale, rise }), [locale, rise]);
  return <NumContext.Provider value={value}>{children}</NumContext.Provider>;
}

export function useNumSettings(): NumSettings {
  return useContext(NumContext);
}

const DECIMAL = /^[+-]?\d+(?:\.(\d+))?$/;
/** A float has no exact decimal form; show enough digits for a price and stop. */
const FLOAT_FRACTION_DIGITS_MAX = 8;

/**
 * What a figure is, which fixes its digits and rounding (see @bourse/money `display.ts`): a `price`
 * at the instrument's tick scale, a `quantity` at the lot step's, `money` at the currency's display
 * scale, `fiat` at two places. Without a kind a decimal string keeps the digits it came with.
 */
export type NumKind = 'price' | 'quantity' | 'money' | 'fiat';

export type FormatNumOptions = {
  locale: string;
  /** Minimum fraction digits; a decimal string keeps its own digits, is padded to this, and is never cut. */
  decimals?: number;
  /** Show `+` before positive values. */
  signed?: boolean;
  kind?: NumKind;
  /** Fraction digits of a `price`, `quantity` or `money` (tick, lot or currency scale). */
  scale?: number;
  /** The value is in percent: two digits (or `decimals`) and a `%`. */
  percent?: boolean;
};

/**
 * Formats in the customer's locale through the one formatter module (@bourse/money): decimal strings
 * and bigints exactly, never through a float. A plain `number` (a count, a chart coordinate) goes
 * through Intl.
 */
export function formatNum(value: NumValue, options: FormatNumOptions): string {
  const { locale, decimals, signed = false, kind, scale, percent = false } = options;
  if (typeof value === 'number') {
    const minimumFractionDigits = decimals ?? 0;
    const maximumFractionDigits = decimals ?? FLOAT_FRACTION_DIGITS_MAX;
    const text = new Intl.NumberFormat(locale, {
      minimumFractionDigits,
      maximumFractionDigits,
      signDisplay: signed ? 'exceptZero' : 'auto',
    }).format(value);
    return percent ? `${text}%` : text;
  }
  const display = { locale, signed };
  if (percent) return formatPercent(value, { ...display, digits: decimals ?? 2 });
  if (kind === 'fiat') return formatFiat(value, display);
  if (kind !== undefined && scale !== undefined) {
    if (kind === 'price') return formatPrice(value, scale, display);
    if (kind === 'quantity') return formatQuantity(value, scale, display);
    return formatMoney(value, scale, display);
  }
  return formatExact(value, { ...display, minFractionDigits: decimals });
}

/** The direction a signed value shows: positive is up, negative is down, zero is flat. */
export function trendOf(value: NumValue): Trend {
  if (typeof value === 'string') {
    const text = value.trim();
    if (!DECIMAL.test(text) || !/[1-9]/.test(text)) return 'flat';
    return text.startsWith('-') ? 'down' : 'up';
  }
  if (value > 0) return 'up';
  if (value < 0) return 'down';
  return 'flat';
}

/** Mantine colour of a trend under the customer's preference. */
export function trendColor(trend: Trend, rise: Rise): 'green' | 'red' | undefined {
  if (trend === 'flat') return undefined;
  const fall = rise === 'green' ? 'red' : 'green';
  return trend === 'up' ? rise : fall;
}

export type NumProps = Omit<TextProps, 'c' | 'children'> & {
  value: NumValue | null | undefined;
  decimals?: number;
  signed?: boolean;
  kind?: NumKind;
  /** Fraction digits for `kind` price / quantity / money: the tick, lot or currency scale. */
  scale?: number;
  /** Appends `%`; the value is already in percent. */
  percent?: boolean;
  /** `auto` colours by the value's sign; `none` (default) leaves the text colour alone. */
  trend?: Trend | 'auto' | 'none';
  prefix?: ReactNode;
  suffix?: ReactNode;
  /** Shown when there is no value. */
  empty?: string;
  component?: 'span' | 'div' | 'p';
  'data-testid'?: string;
};

/** The one way numbers are shown: tabular figures, locale formatting, up/down colours by preference. */
export function Num({
  value,
  decimals,
  signed,
  kind,
  scale,
  percent = false,
  trend = 'none',
  prefix,
  suffix,
  empty = '--',
  component = 'span',
  style,
  ...rest
}: NumProps) {
  const { locale, rise } = useNumSettings();
  if (value === null || value === undefined || value === '') {
    return (
      <Text component={component} style={[{ fontVariantNumeric: 'tabular-nums' }, style]} {...rest}>
        {empty}
      </Text>
    );
  }
  const shown: Trend | undefined = trend === 'auto' ? trendOf(value) : trend === 'none' ? undefined : trend;
  const color = shown ? trendColor(shown, rise) : undefined;
  return (
    <Text
      component={component}
      c={color}
      data-trend={shown}
      style={[{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }, style]}
      {...rest}
    >
      {prefix}
      {formatNum(value, { locale, decimals, signed, kind, scale, percent })}
      {suffix}
    </Text>
  );
}
