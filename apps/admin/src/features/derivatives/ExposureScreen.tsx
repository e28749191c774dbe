import { negate, sumDecimals } from '@bourse/money';
import type { AdminExposureData, AdminOptionExposureData, DerivativesBook } from '@bourse/protocol';
import { Card, Grid, Group, Stack, Text, Title } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorNote } from '../../app/ui.tsx';
import { REFRESH_MS, useExposure, useOptionExposure } from './api.ts';
import { BookToggle, type Column, DataTable, NoControlNote, Num, RefreshedNote, Signed } from './shared.tsx';

type Exposure = { symbol: string };

/** The instrument column both exposure tables start with. */
function symbolColumn<T extends Exposure>(label: string): Column<T> {
  return {
    key: 'symbol',
    label,
    render: (e) => (
      <Text fw={600} size="sm" style={{ whiteSpace: 'nowrap' }}>
        {e.symbol}
      </Text>
    ),
  };
}

/** One auto-refreshing exposure table in its card: title, refusal, table with totals, "refreshed". */
function ExposureSection<T extends Exposure>(props: {
  title: string;
  query: { data?: { items: T[] }; error: unknown; dataUpdatedAt: number };
  columns: Column<T>[];
  totals: readonly ReactNode[];
  testId: string;
  rowTestId: string;
  minWidth: number;
}) {
  const items = props.query.data?.items ?? [];
  return (
    <Card withBorder>
      <Stack gap="sm">
        <Title order={4}>{props.title}</Title>
        <ErrorNote error={props.query.error} />
        {props.query.data ? (
          <DataTable
            rows={items}
            columns={props.columns}
            rowKey={(e) => e.symbol}
            rowAttrs={(e) => ({ 'data-symbol': e.symbol })}
            testId={props.testId}
            rowTestId={props.rowTestId}
            footer={items.length > 0 ? props.totals : undefined}
            minWidth={props.minWidth}
          />
        ) : null}
        <RefreshedNote updatedAt={props.query.dataUpdatedAt} seconds={REFRESH_MS / 1000} />
      </Stack>
    </Card>
  );
}

/**
 * Exposure per instrument and book: customers' open contract positions (long, short and net lots,
 * margin, their unrealised P&L — the platform holds the opposite) and open up/down options (stakes
 * per direction and the most the platform could pay). Refreshes every few seconds.
 */
export default function ExposureScreen() {
  const { t } = useTranslation();
  const [book, setBook] = useState<DerivativesBook>('real');
  const contracts = useExposure(book);
  const options = useOptionExposure(book);

  const contractColumns: Column<AdminExposureData>[] = [
    symbolColumn(t('derivatives.common.symbol')),
    {
      key: 'positions',
      label: t('derivatives.exposure.positions'),
      align: 'right',
      render: (e) => <Num>{e.positions}</Num>,
    },
    {
      key: 'long',
      label: t('derivatives.exposure.long'),
      align: 'right',
      render: (e) => <Num>{e.long_lots}</Num>,
    },
    {
      key: 'short',
      label: t('derivatives.exposure.short'),
      align: 'right',
      render: (e) => <Num>{e.short_lots}</Num>,
    },
    {
      key: 'net',
      label: t('derivatives.exposure.net'),
      align: 'right',
      render: (e) => <Signed value={e.net_lots} />,
    },
    {
      key: 'margin',
      label: t('derivatives.exposure.margin'),
      align: 'right',
      render: (e) => <Num>{e.margin}</Num>,
    },
    {
      key: 'pnl',
      label: t('derivatives.exposure.pnl'),
      align: 'right',
      render: (e) => (
        <Stack gap={0} align="flex-end">
          <Signed value={e.unrealized_pnl} />
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {t('derivatives.exposure.platformPnl', { amount: negate(e.unrealized_pnl) })}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'mark',
      label: t('derivatives.exposure.mark'),
      align: 'right',
      render: (e) => <Num>{e.mark_price}</Num>,
    },
  ];
  const items = contracts.data?.items ?? [];
  const contractTotals = [
    t('derivatives.exposure.total'),
    <Num key="p">{items.reduce((n, e) => n + e.positions, 0)}</Num>,
    '',
    '',
    '',
    <Num key="m">{sumDecimals(items.map((e) => e.margin))}</Num>,
    <Signed key="u" value={sumDecimals(items.map((e) => e.unrealized_pnl))} />,
    '',
  ];

  const optionColumns: Column<AdminOptionExposureData>[] = [
    symbolColumn(t('derivatives.common.symbol')),
    {
      key: 'open',
      label: t('derivatives.exposure.openOrders'),
      align: 'right',
      render: (e) => <Num>{e.open_orders}</Num>,
    },
    {
      key: 'up',
      label: t('derivatives.exposure.upStake'),
      align: 'right',
      render: (e) => <Num>{e.up_stake}</Num>,
    },
    {
      key: 'down',
      label: t('derivatives.exposure.downStake'),
      align: 'right',
      render: (e) => <Num>{e.down_stake}</Num>,
    },
    {
      key: 'max',
      label: t('derivatives.exposure.maxPayout'),
      align: 'right',
      render: (e) => <Num>{e.max_payout}</Num>,
    },
  ];
  const optionItems = options.data?.items ?? [];
  const optionTotals = [
    t('derivatives.exposure.total'),
    <Num key="o">{optionItems.reduce((n, e) => n + e.open_orders, 0)}</Num>,
    <Num key="u">{sumDecimals(optionItems.map((e) => e.up_stake))}</Num>,
    <Num key="d">{sumDecimals(optionItems.map((e) => e.down_stake))}</Num>,
    <Num key="x">{sumDecimals(optionItems.map((e) => e.max_payout))}</Num>,
  ];

  return (
    <Stack data-testid="exposure-screen" data-book={book}>
      <Group justify="space-between" wrap="wrap">
        <Title order={2}>{t('derivatives.exposure.title')}</Title>
        <BookToggle value={book} onChange={setBook} />
      </Group>
      <NoControlNote />
      <Text size="sm" c="dimmed">
        {t('derivatives.exposure.intro')}
      </Text>
      <Grid gap="md">
        <Grid.Col span={{ base: 12, xl: 7 }}>
          <ExposureSection
            title={t('derivatives.exposure.contractsTitle')}
            query={contracts}
            columns={contractColumns}
            totals={contractTotals}
            testId="exposure-table"
            rowTestId="exposure-row"
            minWidth={900}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, xl: 5 }}>
          <ExposureSection
            title={t('derivatives.exposure.optionsTitle')}
            query={options}
            columns={optionColumns}
            totals={optionTotals}
            testId="option-exposure-table"
            rowTestId="option-exposure-row"
            minWidth={560}
          />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
