import type { ContractInstrumentData, ContractSide, TickerData } from '@bourse/protocol';
import { Num, Sheet } from '@bourse/ui';
import { Badge, Button, Grid, Group, Paper, SimpleGrid, Stack, Tabs, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTicker } from '../../../lib/marketStore.ts';
import { KlineChart } from '../../../shared/chart/KlineChart.tsx';
import { PriceStateBadge, SimBadge } from '../../../shared/market/components/badges.tsx';
import { PriceCell } from '../../../shared/market/components/PriceCell.tsx';
import { mergeRow } from '../../../shared/market/logic.ts';
import { ContractRules } from './ContractRules.tsx';
import { OrderForm } from './OrderForm.tsx';
import { PositionsPanel } from './Positions.tsx';

const PHONE = '(max-width: 47.99em)';

function Stat({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      {children}
    </Stack>
  );
}

/** Symbol, class, open/closed, live price and change; bid, ask and mark from the tickers channel. */
function Header({
  instrument,
  row,
  demo,
  picker,
}: {
  instrument: ContractInstrumentData;
  row: TickerData | undefined;
  demo: boolean;
  picker: ReactNode;
}) {
  const { t } = useTranslation('contract');
  const { t: tm } = useTranslation('market');
  const live = useTicker(instrument.symbol);
  const merged = row ? mergeRow(row, live, 0) : null;
  const scale = merged?.price_scale;
  return (
    <Stack gap="sm" data-testid="contract-header">
      <Group gap="md" align="center" wrap="wrap" style={{ rowGap: 8 }}>
        <Title order={1} fz={{ base: 20, sm: 26 }} translate="no" data-testid="contract-symbol">
          {instrument.symbol}
        </Title>
        {picker}
        <Group gap={6}>
          <Badge variant="light" color="gray">
            {tm(`class.${instrument.asset_class}`)}
          </Badge>
          <Badge
            variant="light"
            color={instrument.open ? 'teal' : 'gray'}
            data-testid="contract-open"
            data-open={instrument.open ? 'yes' : 'no'}
          >
            {instrument.open ? t('header.open') : t('header.closed')}
          </Badge>
          {!instrument.enabled ? (
            <Badge variant="light" color="orange">
              {t('header.disabled')}
            </Badge>
          ) : null}
          {merged?.source === 'sim' ? <SimBadge /> : null}
          {merged ? <PriceStateBadge state={merged.state} size="sm" /> : null}
          {demo ? (
            <Badge color="orange" variant="light" data-testid="demo-book">
              {t('header.demoBook')}
            </Badge>
          ) : null}
        </Group>
      </Group>
      <Group gap="xl" wrap="wrap" align="flex-end">
        <Stat label={t('header.last')}>
          {merged ? (
            <PriceCell
              value={merged.last}
              scale={merged.price_scale}
              move={merged.move}
              updatedAt={merged.updated_at}
              size="xl"
              testId="contract-last"
            />
          ) : (
            <Text>--</Text>
          )}
        </Stat>
        <Stat label={t('header.change')}>
          <Num value={merged?.change_pct_24h} percent signed trend="auto" size="md" fw={700} />
        </Stat>
        <Group gap="xl" visibleFrom="sm">
          <Stat label={t('header.bid')}>
            <Num value={live?.bid || null} kind="price" scale={scale} size="sm" data-testid="contract-bid" />
          </Stat>
          <Stat label={t('header.ask')}>
            <Num value={live?.ask || null} kind="price" scale={scale} size="sm" data-testid="contract-ask" />
          </Stat>
          <Stat label={t('header.mark')}>
            <Num value={live?.mark || null} kind="price" scale={scale} size="sm" />
          </Stat>
        </Group>
        <Text size="sm" c="dimmed" translate="no" visibleFrom="sm">
          {instrument.name}
        </Text>
      </Group>
    </Stack>
  );
}

/** The phone's order actions: two buttons held at the bottom, each opening the form for its side. */
function PhoneActions({ onPick }: { onPick: (side: ContractSide) => void }) {
  const { t } = useTranslation('contract');
  return (
    <Paper
      withBorder
      p="xs"
      radius="md"
      shadow="md"
      style={{ position: 'sticky', bottom: 'calc(var(--app-shell-footer-offset, 0px) + 8px)', zIndex: 5 }}
      data-testid="phone-actions"
    >
      <SimpleGrid cols={2} spacing="xs">
        <Button color="teal" onClick={() => onPick('buy')} data-testid="phone-buy">
          {t('form.buy')}
        </Button>
        <Button color="red" onClick={() => onPick('sell')} data-testid="phone-sell">
          {t('form.sell')}
        </Button>
      </SimpleGrid>
    </Paper>
  );
}

/**
 * The contract trade view on /preciousMetal: header with the live price, chart, order form with the
 * server's preview, the contract's rules, and the customer's positions, orders and records.
 * Phones stack it: chart and rules in tabs, positions as cards, buy/sell at the bottom.
 */
export function ContractTradeView({
  instrument,
  instruments,
  row,
  demo,
  loggedIn,
  picker,
}: {
  instrument: ContractInstrumentData;
  instruments: readonly ContractInstrumentData[];
  row: TickerData | undefined;
  demo: boolean;
  loggedIn: boolean;
  picker: ReactNode;
}) {
  const { t } = useTranslation('contract');
  const phone = useMediaQuery(PHONE, window.matchMedia(PHONE).matches, { getInitialValueInEffect: false });
  const [view, setView] = useState<string>('chart');
  const [sheetSide, setSheetSide] = useState<ContractSide | null>(null);
  const scale = row?.price_scale ?? 2;
  const header = <Header instrument={instrument} row={row} demo={demo} picker={picker} />;
  const panel = <PositionsPanel loggedIn={loggedIn} instruments={instruments} />;

  if (phone) {
    return (
      <Stack gap="sm" py="sm" data-testid="contract-view" data-symbol={instrument.symbol} data-layout="phone">
        {header}
        <Tabs value={view} onChange={(v) => v && setView(v)} keepMounted={false}>
          <Tabs.List grow mb="xs">
            <Tabs.Tab value="chart" data-testid="view-chart">
              {t('view.chart')}
            </Tabs.Tab>
            <Tabs.Tab value="info" data-testid="view-info">
              {t('view.info')}
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="chart">
            <KlineChart symbol={instrument.symbol} priceScale={scale} height={280} />
          </Tabs.Panel>
          <Tabs.Panel value="info">
            <ContractRules instrument={instrument} />
          </Tabs.Panel>
        </Tabs>
        {panel}
        <PhoneActions onPick={setSheetSide} />
        <Sheet
          opened={sheetSide !== null}
          onClose={() => setSheetSide(null)}
          title={
            <Text fw={600} translate="no">
              {instrument.symbol}
            </Text>
          }
          closeLabel={t('positions.closeDialog')}
          data-testid="phone-order-sheet"
        >
          {sheetSide ? (
            <OrderForm
              key={`${instrument.symbol}-${sheetSide}`}
              instrument={instrument}
              loggedIn={loggedIn}
              demo={demo}
              initialSide={sheetSide}
              onDone={() => setSheetSide(null)}
            />
          ) : null}
        </Sheet>
      </Stack>
    );
  }
  return (
    <Stack gap="md" py="lg" data-testid="contract-view" data-symbol={instrument.symbol} data-layout="desktop">
      {header}
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 7, xl: 6 }}>
          <KlineChart symbol={instrument.symbol} priceScale={scale} height={520} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5, xl: 3 }}>
          <Paper withBorder radius="md" p="sm" data-testid="order-entry">
            <OrderForm key={instrument.symbol} instrument={instrument} loggedIn={loggedIn} demo={demo} />
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, xl: 3 }}>
          <ContractRules instrument={instrument} />
        </Grid.Col>
      </Grid>
      {panel}
    </Stack>
  );
}
