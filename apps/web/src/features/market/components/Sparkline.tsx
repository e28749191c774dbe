import type { KlineData } from '@bourse/protocol';
import { trendColor, trendOf, useNumSettings } from '@bourse/ui';
import { Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiGet } from '../../../lib/api.ts';

export const SPARK_CANDLES = 24;

/** Points of a sparkline (drawing only: floats are fine for pixels, never for amounts). */
export function sparkPoints(closes: readonly string[], width: number, height: number): string {
  if (closes.length < 2) return '';
  const values = closes.map(Number);
  const min = Math.min(...values);
  const max = Math.max(...values);
  const span = max - min || 1;
  return values
    .map(
      (v, i) =>
        `${((i / (values.length - 1)) * width).toFixed(1)},${(height - 2 - ((v - min) / span) * (height - 4)).toFixed(1)}`,
    )
    .join(' ');
}

/** The last 24 one-hour candles of a coin as a line, coloured by the day's direction. */
export function Sparkline({ symbol, change }: { symbol: string; change: string }) {
  const { t } = useTranslation('market');
  const { rise } = useNumSettings();
  const query = useQuery({
    queryKey: ['web/getKline', symbol, '1h', SPARK_CANDLES],
    queryFn: () => apiGet<KlineData>('web/getKline', { symbol, interval: '1h', limit: SPARK_CANDLES }),
    staleTime: 300_000,
  });
  const closes = query.data?.items.map((c) => c.close) ?? [];
  if (query.isSuccess && closes.length < 2) {
    return (
      <Text size="xs" c="dimmed">
        {t('ldcoin.noTrend')}
      </Text>
    );
  }
  const color = trendColor(trendOf(change), rise) ?? 'gray';
  return (
    <svg
      width="120"
      height="36"
      viewBox="0 0 120 36"
      aria-hidden="true"
      data-testid="sparkline"
      data-points={closes.length}
    >
      <polyline
        points={sparkPoints(closes, 120, 36)}
        fill="none"
        stroke={`var(--mantine-color-${color}-6)`}
        strokeWidth="1.6"
        strokeLinejoin="round"
      />
    </svg>
  );
}
