import type { AdminExposureData, AdminOptionExposureData, DerivativesBook } from '@bourse/protocol';
import { Card, Grid, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorNote } from '../../app/ui.tsx';
import { REFRESH_MS, useExposure, useOptionExposure } from './api.ts';
import { negate, sumDecimals } from './decimals.ts';
import { BookToggle, type Column, DataTable, NoControlNote, Num, RefreshedNote, Signed } from './shared.tsx';

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
    {
      key: 'symbol',
      label: t('derivatives.common.symbol'),
      render: (e) => (
        <Text fw={600} size="sm" style={{ whiteSpace: 'nowrap' }}>
          {e.symbol}
        </Text>
      ),
    },
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
    {
      key: 'symbol',
      label: t('derivatives.common.symbol'),
      render: (e) => (
        <Text fw={600} size="sm" style={{ whiteSpace: 'nowrap' }}>
          {e.symbol}
        </Text>
      ),
    },
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
          <Card withBorder>
            <Stack gap="sm">
              <Title order={4}>{t('derivatives.exposure.contractsTitle')}</Title>
              <ErrorNote error={contracts.error} />
              {contracts.data ? (
                <DataTable
                  rows={items}
                  columns={contractColumns}
                  rowKey={(e) => e.symbol}
                  rowAttrs={(e) => ({ 'data-symbol': e.symbol })}
                  testId="exposure-table"
                  rowTestId="exposure-row"
                  footer={items.length > 0 ? contractTotals : undefined}
                  minWidth={900}
                />
              ) : null}
              <RefreshedNote updatedAt={contracts.dataUpdatedAt} seconds={REFRESH_MS / 1000} />
            </Stack>
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, xl: 5 }}>
          <Card withBorder>
            <Stack gap="sm">
              <Title order={4}>{t('derivatives.exposure.optionsTitle')}</Title>
              <ErrorNote error={options.error} />
              {options.data ? (
                <DataTable
                  rows={optionItems}
                  columns={optionColumns}
                  rowKey={(e) => e.symbol}
                  rowAttrs={(e) => ({ 'data-symbol': e.symbol })}
                  testId="option-exposure-table"
                  rowTestId="option-exposure-row"
                  footer={optionItems.length > 0 ? optionTotals : undefined}
                  minWidth={560}
                />
              ) : null}
              <RefreshedNote updatedAt={options.dataUpdatedAt} seconds={REFRESH_MS / 1000} />
            </Stack>
          </Card>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
