import { Num } from '@bourse/ui';
import { Anchor, Badge, Grid, Group, Loader, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useTicker } from '../../lib/marketStore.ts';
import { KlineChart } from '../chart/KlineChart.tsx';
import { useInstrument } from '../market/api/getInstruments.ts';
import { useCatalogue } from '../market/api/getTickers.ts';
import { PriceStateBadge, SimBadge } from '../market/components/badges.tsx';
import { PriceCell } from '../market/components/PriceCell.tsx';
import { mergeRow } from '../market/logic.ts';
import { useInstrumentName } from '../market/names.ts';
import { InstrumentPanel } from './InstrumentPanel.tsx';
import { TradeActions } from './TradeActions.tsx';

/**
 * One instrument: header with the live price, the K-line chart and the panel (prices, 24 h
 * statistics, contract specification, hours). Shared by /market?symbol=, /ldcoin?symbol= and
 * /preciousMetal (which adds its picker through `picker`).
 */
export function InstrumentView({
  symbol,
  back,
  picker,
  note,
}: {
  symbol: string;
  back?: { to: string; label: string };
  picker?: ReactNode;
  note?: ReactNode;
}) {
  const { t } = useTranslation('market');
  const nameOf = useInstrumentName();
  const catalogue = useCatalogue();
  const spec = useInstrument(symbol);
  const live = useTicker(symbol);
  const rank = catalogue.data?.findIndex((r) => r.symbol === symbol) ?? -1;
  const base = rank >= 0 ? catalogue.data?.[rank] : undefined;

  if (catalogue.isPending) {
    return (
      <Stack align="center" py={80}>
        <Loader size="sm" />
      </Stack>
    );
  }
  if (!base) {
    return (
      <Stack py="xl" gap="md" data-testid="instrument-not-found">
        {picker}
        <Text c="dimmed">{t('instrument.notFound', { symbol })}</Text>
        {back ? (
          <Anchor component={Link} to={back.to}>
            {back.label}
          </Anchor>
        ) : null}
      </Stack>
    );
  }
  const row = mergeRow(base, live, rank);

  return (
    <Stack gap="md" py={{ base: 'md', sm: 'xl' }} data-testid="instrument-view" data-symbol={symbol}>
      {back ? (
        <Anchor component={Link} to={back.to} size="sm" data-testid="instrument-back">
          ← {back.label}
        </Anchor>
      ) : null}
      {picker}
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="md">
        <Stack gap={2}>
          <Group gap="xs">
            <Title order={1} fz={{ base: 22, sm: 28 }} translate="no" data-testid="instrument-symbol">
              {row.symbol}
            </Title>
            <Badge variant="light" color="gray">
              {t(`class.${row.class}`)}
            </Badge>
            {row.source === 'sim' ? <SimBadge /> : null}
            <PriceStateBadge state={row.state} size="sm" />
          </Group>
          <Text size="sm" c="dimmed" translate="no">
            {nameOf(row)}
          </Text>
          <TradeActions symbol={row.symbol} assetClass={row.class} />
        </Stack>
        <Group gap="lg" align="flex-end">
          <Stack gap={0} align="flex-end">
            <Text size="xs" c="dimmed">
              {t('instrument.last')}
            </Text>
            <PriceCell
              value={row.last}
              scale={row.price_scale}
              move={row.move}
              updatedAt={row.updated_at}
              size="xl"
              testId="instrument-last"
            />
          </Stack>
          <Stack gap={0} align="flex-end">
            <Text size="xs" c="dimmed">
              {t('instrument.change24')}
            </Text>
            <Num value={row.change_pct_24h} percent signed trend="auto" size="lg" fw={700} />
          </Stack>
        </Group>
      </Group>
      {note}
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 8, xl: 9 }}>
          <KlineChart symbol={symbol} priceScale={row.price_scale} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4, xl: 3 }}>
          <InstrumentPanel row={row} spec={spec.data} />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
