import { scaleOfStep } from '@bourse/money';
import type { ContractSide } from '@bourse/protocol';
import { Num, type NumProps, trendColor, useNumSettings } from '@bourse/ui';
import { Badge, Group, Progress, Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format.ts';
import { useLang } from '../../../lib/i18n.ts';
import { useContracts } from '../../../shared/market/api/getContracts.ts';
import { fractionPct, riskProgress } from '../logic.ts';
import type { Column } from './DataList.tsx';

/** Long / Short in the up / down colour. */
export function SideText({ side, leverage }: { side: ContractSide; leverage?: number }) {
  const { t } = useTranslation('contract');
  const { rise } = useNumSettings();
  return (
    <Text
      size="sm"
      fw={600}
      c={trendColor(side === 'buy' ? 'up' : 'down', rise)}
      style={{ whiteSpace: 'nowrap' }}
    >
      {t(`side.${side}`)}
      {leverage ? ` ${leverage}×` : ''}
    </Text>
  );
}

export function Time({ ms }: { ms: number | null | undefined }) {
  const lang = useLang();
  if (!ms) return <Text size="sm">--</Text>;
  return <Text size="sm">{formatDateTime(ms, lang)}</Text>;
}

export function SymbolText({ symbol }: { symbol: string }) {
  return (
    <Text size="sm" fw={600} translate="no" style={{ whiteSpace: 'nowrap' }}>
      {symbol}
    </Text>
  );
}

/** Side (with leverage, when given) and symbol on one line: the title line of a phone card. */
export function SideSymbol({
  side,
  symbol,
  leverage,
}: {
  side: ContractSide;
  symbol: string;
  leverage?: number;
}) {
  return (
    <Group gap={6} wrap="nowrap">
      <SideText side={side} leverage={leverage} />
      <SymbolText symbol={symbol} />
    </Group>
  );
}

/**
 * The symbol and side columns of every contract list (both in the phone card's title line, so left
 * out of its fields). Leverage shows beside the side only for rows that have one.
 */
export function useSymbolSideColumns<T extends { symbol: string; side: ContractSide }>(
  leverage?: (row: T) => number,
): Column<T>[] {
  const { t } = useTranslation('contract');
  return [
    { key: 'symbol', label: t('col.symbol'), render: (r) => <SymbolText symbol={r.symbol} />, inTitle: true },
    {
      key: 'side',
      label: t('col.side'),
      render: (r) => <SideText side={r.side} leverage={leverage?.(r)} />,
      inTitle: true,
    },
  ];
}

/** The risk rate as a percent with a bar measured against the liquidation level. */
export function RiskRate({ rate, level, testId }: { rate: string | null; level: string; testId?: string }) {
  const { t } = useTranslation('contract');
  const pct = fractionPct(rate);
  const progress = riskProgress(rate, level);
  const color = progress >= 75 ? 'red' : progress >= 40 ? 'orange' : 'teal';
  return (
    <Stack gap={2} miw={96} data-testid={testId} data-rate={rate ?? ''} data-level={level}>
      <Group gap={4} wrap="nowrap">
        <Num value={pct} percent size="sm" fw={600} />
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          / {fractionPct(level)}%
        </Text>
      </Group>
      <Progress
        value={progress}
        color={color}
        size="sm"
        aria-label={t('positions.liqAt', { level: fractionPct(level) ?? '' })}
      />
    </Stack>
  );
}

/** A status in words, coloured. */
export function StatusBadge({ label, color, status }: { label: string; color: string; status: string }) {
  return (
    <Badge variant="light" color={color} size="sm" data-testid="status" data-status={status}>
      {label}
    </Badge>
  );
}

/** Signed USDT, coloured by sign. */
export function Pnl({ value, testId }: { value: string | null; testId?: string }) {
  return (
    <Num
      value={value}
      kind="fiat"
      signed
      trend="auto"
      size="sm"
      fw={600}
      data-testid={testId}
      data-value={value ?? ''}
    />
  );
}

/** Price and lot scales of every contract, from the catalogue (cached), by symbol. */
function useContractScales(): ReadonlyMap<string, { price: number; lots: number }> {
  const contracts = useContracts();
  return useMemo(
    () =>
      new Map(
        (contracts.data ?? []).map((c) => [
          c.symbol,
          { price: scaleOfStep(c.price_tick), lots: scaleOfStep(c.lot_step) },
        ]),
      ),
    [contracts.data],
  );
}

type FigureProps = Omit<NumProps, 'kind' | 'scale' | 'value'> & { value: string | null | undefined };

/** A contract price at the instrument's tick scale (the shared formatter, @bourse/money). */
export function ContractPrice({ symbol, ...rest }: FigureProps & { symbol: string }) {
  const scale = useContractScales().get(symbol)?.price;
  return <Num kind="price" scale={scale} size="sm" {...rest} />;
}

/** Lots at the instrument's lot step scale. */
export function ContractLots({ symbol, ...rest }: FigureProps & { symbol: string }) {
  const scale = useContractScales().get(symbol)?.lots;
  return <Num kind="quantity" scale={scale} size="sm" {...rest} />;
}

/** Margin, fees and funding: USDT at two places, never overstated. */
export function Usdt(props: FigureProps) {
  return <Num kind="fiat" size="sm" {...props} />;
}
