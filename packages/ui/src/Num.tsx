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
/** Intl.NumberFormat accepts at most 100 fraction digits. */
const FRACTION_DIGITS_MAX = 100;
/** A float has no exact decimal form; show enough digits for a price and stop. */
const FLOAT_FRACTION_DIGITS_MAX = 8;

export type FormatNumOptions = {
  locale: string;
  /** Minimum fraction digits; a decimal string keeps its own digits, is padded to this, and is never cut. */
  decimals?: number;
  /** Show `+` before positive values. */
  signed?: boolean;
};

/** Formats in the customer's locale. A decimal string keeps every digit it has (Intl formats strings exactly). */
export function formatNum(value: NumValue, { locale, decimals, signed = false }: FormatNumOptions): string {
  const signDisplay = signed ? 'exceptZero' : 'auto';
  if (typeof value === 'string') {
    const match = DECIMAL.exec(value.trim());
    if (!match) return value;
    // The string's own scale is kept ("1.80" stays "1.80"); `decimals` may only pad it.
    const fractionDigits = match[1]?.length ?? 0;
    const digits = Math.min(Math.max(decimals ?? 0, fractionDigits), FRACTION_DIGITS_MAX);
    const format = new Intl.NumberFormat(locale, {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
      signDisplay,
    });
    return format.format(value.trim() as Intl.StringNumericLiteral);
  }
  if (typeof value === 'bigint') {
    return new Intl.NumberFormat(locale, { signDisplay }).format(value);
  }
  const minimumFractionDigits = decimals ?? 0;
  const maximumFractionDigits = decimals ?? FLOAT_FRACTION_DIGITS_MAX;
  return new Intl.NumberFormat(locale, { minimumFractionDigits, maximumFractionDigits, signDisplay }).format(
    value,
  );
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
      {formatNum(value, { locale, decimals, signed })}
      {percent ? '%' : null}
      {suffix}
    </Text>
  );
}
