import {
  Button,
  Group,
  Pagination,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSpotMarkets } from '../../../shared/market/api/getSpotMarkets.ts';
import { ExportCsvButton } from '../../../shared/records/ExportCsvButton.tsx';
import { type OrderFilter, useCurrentOrders, useHistoryOrders, useMyTrades } from '../api/getOrders.ts';
import { useSpotPrivateSync } from '../hooks/useSpotPrivateSync.ts';
import { FillsTable, OrdersTable } from './OrderTables.tsx';

const PAGE_SIZE = 20;
const DAY_MS = 86_400_000;
const RANGES = ['all', '1', '7', '30', '90'] as const;
type Range = (typeof RANGES)[number];

/** /currencyRecord: spot orders (open and history) and trades, with filters and pages. */
export function SpotRecordsPage() {
  const { t } = useTranslation('trade');
  const markets = useSpotMarkets();
  const [tab, setTab] = useState<string>('orders');
  const [symbol, setSymbol] = useState<string | null>(null);
  const [status, setStatus] = useState<string>('history');
  const [side, setSide] = useState<string | null>(null);
  const [range, setRange] = useState<Range>('all');
  const [page, setPage] = useState(1);
  useSpotPrivateSync(null);

  // The range is fixed when chosen, so the query key stays stable while paging.
  const [since, setSince] = useState<number | undefined>(undefined);
  const chooseRange = (value: Range) => {
    setRange(value);
    setSince(value === 'all' ? undefined : Date.now() - Number(value) * DAY_MS);
    setPage(1);
  };
  const filter: OrderFilter = {
    ...(symbol ? { symbol } : {}),
    ...(status === 'filled' || status === 'cancelled' ? { status } : {}),
    ...(side === 'buy' || side === 'sell' ? { side } : {}),
    ...(since ? { start_time: since } : {}),
    page,
    page_size: PAGE_SIZE,
  };
  const open = useCurrentOrders(
    tab === 'orders' && status === 'open' ? filter : { ...filter, page: 1, page_size: 1 },
  );
  const history = useHistoryOrders(filter);
  const fills = useMyTrades(filter);
  const active = tab === 'fills' ? fills : status === 'open' ? open : history;
  const total = active.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  // The export takes the shown list's filters (web/exportSpotRecords).
  const list = tab === 'fills' ? 'fills' : status === 'open' ? 'open' : 'history';
  const exportParams = {
    list,
    symbol: filter.symbol,
    ...(list === 'history' ? { status: filter.status, side: filter.side } : {}),
    ...(list !== 'open' ? { start_time: filter.start_time } : {}),
  };
  const reset = () => {
    setSymbol(null);
    setStatus('history');
    setSide(null);
    chooseRange('all');
  };

  return (
    <Stack gap="md" py={{ base: 'md', sm: 'xl' }} data-testid="spot-records-page">
      <Title order={1} fz={{ base: 22, sm: 28 }}>
        {t('records.title')}
      </Title>
      <Paper withBorder radius="md" p={{ base: 'xs', sm: 'md' }}>
        <Tabs
          value={tab}
          onChange={(v) => {
            if (!v) return;
            setTab(v);
            setPage(1);
          }}
        >
          <Tabs.List mb="md">
            <Tabs.Tab value="orders" data-testid="records-tab-orders">
              {t('records.orders')}
            </Tabs.Tab>
            <Tabs.Tab value="fills" data-testid="records-tab-fills">
              {t('records.fills')}
            </Tabs.Tab>
          </Tabs.List>
          <Group gap="sm" mb="md" wrap="wrap" align="flex-end">
            <Select
              size="sm"
              w={{ base: '100%', xs: 180 }}
              placeholder={t('records.allMarkets')}
              aria-label={t('records.allMarkets')}
              data={(markets.data ?? []).map((m) => ({ value: m.symbol, label: m.symbol }))}
              value={symbol}
              clearable
              onChange={(v) => {
                setSymbol(v);
                setPage(1);
              }}
              data-testid="records-symbol"
            />
            {tab === 'orders' ? (
              <SegmentedControl
                size="sm"
                value={status}
                onChange={(v) => {
                  setStatus(v);
                  setPage(1);
                }}
                data={[
                  { value: 'open', label: t('records.current') },
                  { value: 'history', label: t('records.allStatuses') },
                  { value: 'filled', label: t('orders.statusName.filled') },
                  { value: 'cancelled', label: t('orders.statusName.cancelled') },
                ]}
                data-testid="records-status"
              />
            ) : null}
            {tab === 'orders' && status !== 'open' ? (
              <Select
                size="sm"
                w={{ base: '48%', xs: 140 }}
                placeholder={t('records.allSides')}
                aria-label={t('records.allSides')}
                data={[
                  { value: 'buy', label: t('orders.sideName.buy') },
                  { value: 'sell', label: t('orders.sideName.sell') },
                ]}
                value={side}
                clearable
                onChange={(v) => {
                  setSide(v);
                  setPage(1);
                }}
                data-testid="records-side"
              />
            ) : null}
            <Select
              size="sm"
              w={{ base: '48%', xs: 140 }}
              aria-label={t('records.period')}
              data={RANGES.map((r) => ({
                value: r,
                label: r === 'all' ? t('records.allTime') : t('records.lastDays', { count: Number(r) }),
              }))}
              value={range}
              allowDeselect={false}
              onChange={(v) => v && chooseRange(v as Range)}
              data-testid="records-range"
            />
            <Button variant="subtle" size="sm" onClick={reset} data-testid="records-reset">
              {t('records.reset')}
            </Button>
            <ExportCsvButton
              call="web/exportSpotRecords"
              params={exportParams}
              filename={`spot-${list}.csv`}
            />
          </Group>
          <Tabs.Panel value="orders">
            {status === 'open' ? (
              <OrdersTable items={open.data?.items} loading={open.isPending} cancel />
            ) : (
              <OrdersTable items={history.data?.items} loading={history.isPending} cancel={false} />
            )}
          </Tabs.Panel>
          <Tabs.Panel value="fills">
            <FillsTable items={fills.data?.items} loading={fills.isPending} />
          </Tabs.Panel>
        </Tabs>
        <Group justify="space-between" mt="md" wrap="wrap">
          <Text size="sm" c="dimmed" data-testid="records-total" data-total={total}>
            {t('records.total', { count: total })}
          </Text>
          <Pagination total={pages} value={page} onChange={setPage} size="sm" data-testid="records-pages" />
        </Group>
      </Paper>
    </Stack>
  );
}
