import type { ContractOrderStatus, ContractPositionStatus } from '@bourse/protocol';
import { Anchor, Button, Group, Pagination, Paper, Select, Stack, Tabs, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useContracts } from '../../../shared/market/api/getContracts.ts';
import { ExportCsvButton } from '../../../shared/records/ExportCsvButton.tsx';
import {
  type ListFilter,
  useContractCloses,
  useContractFunding,
  useContractHistory,
  useContractOrders,
} from '../api.ts';
import { ClosesList, FundingList, HistoryList, OrdersList } from './Lists.tsx';

const PAGE_SIZE = 20;
const DAY_MS = 86_400_000;
const RANGES = ['all', '1', '7', '30', '90'] as const;
type Range = (typeof RANGES)[number];
type Tab = 'history' | 'orders' | 'closes' | 'funding';

const STATUSES: Record<Tab, readonly string[]> = {
  history: ['closed', 'liquidated', 'delivered'],
  orders: ['pending', 'filled', 'cancelled'],
  closes: [],
  funding: [],
};

/** /contractRecord: positions history, orders, closes and funding, with filters and pages. */
export function ContractRecordsPage() {
  const { t } = useTranslation('contract');
  const contracts = useContracts();
  const [tab, setTab] = useState<Tab>('history');
  const [symbol, setSymbol] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [range, setRange] = useState<Range>('all');
  const [since, setSince] = useState<number | undefined>(undefined);
  const [page, setPage] = useState(1);

  const chooseRange = (value: Range) => {
    setRange(value);
    // Fixed when chosen, so the query key stays stable while paging.
    setSince(value === 'all' ? undefined : Date.now() - Number(value) * DAY_MS);
    setPage(1);
  };
  const base: ListFilter = { ...(symbol ? { symbol } : {}), page, page_size: PAGE_SIZE };
  const history = useContractHistory({
    ...base,
    ...(tab === 'history' && status ? { status } : {}),
    ...(since ? { start_time: since } : {}),
  });
  // Orders: without a status filter, pending orders (the call's default).
  const orders = useContractOrders({ ...base, ...(tab === 'orders' && status ? { status } : {}) });
  const closes = useContractCloses(base);
  const funding = useContractFunding(base);
  const active = { history, orders, closes, funding }[tab];
  const total = active.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  // The export takes the shown list's filters (web/exportContractRecords).
  const exportParams = {
    list: tab,
    symbol: symbol ?? undefined,
    status: status ?? undefined,
    start_time: tab === 'history' ? since : undefined,
  };
  const reset = () => {
    setSymbol(null);
    setStatus(null);
    chooseRange('all');
  };
  const statusLabel = (s: string): string =>
    tab === 'history'
      ? t(`positionStatus.${s as ContractPositionStatus}`)
      : t(`orderStatus.${s as ContractOrderStatus}`);

  return (
    <Stack gap="md" py={{ base: 'md', sm: 'xl' }} data-testid="contract-records-page">
      <Group justify="space-between" align="flex-end">
        <Title order={1} fz={{ base: 22, sm: 28 }}>
          {t('records.title')}
        </Title>
        <Anchor component={Link} to="/preciousMetal" size="sm" data-testid="records-trade">
          {t('records.trade')}
        </Anchor>
      </Group>
      <Paper withBorder radius="md" p={{ base: 'xs', sm: 'md' }}>
        <Tabs
          value={tab}
          onChange={(v) => {
            if (!v) return;
            setTab(v as Tab);
            setStatus(null);
            setPage(1);
          }}
        >
          <Tabs.List mb="md" style={{ flexWrap: 'nowrap', overflowX: 'auto', overflowY: 'hidden' }}>
            <Tabs.Tab value="history" data-testid="records-tab-history">
              {t('tabs.history')}
            </Tabs.Tab>
            <Tabs.Tab value="orders" data-testid="records-tab-orders">
              {t('tabs.orders')}
            </Tabs.Tab>
            <Tabs.Tab value="closes" data-testid="records-tab-closes">
              {t('tabs.closes')}
            </Tabs.Tab>
            <Tabs.Tab value="funding" data-testid="records-tab-funding">
              {t('tabs.funding')}
            </Tabs.Tab>
          </Tabs.List>
          <Group gap="sm" mb="md" wrap="wrap" align="flex-end">
            <Select
              size="sm"
              w={{ base: '100%', xs: 240 }}
              placeholder={t('records.allContracts')}
              aria-label={t('records.allContracts')}
              data={(contracts.data ?? []).map((c) => ({ value: c.symbol, label: c.symbol }))}
              value={symbol}
              searchable
              clearable
              translate="no"
              onChange={(v) => {
                setSymbol(v);
                setPage(1);
              }}
              data-testid="records-symbol"
            />
            {STATUSES[tab].length > 0 ? (
              <Select
                size="sm"
                w={{ base: '48%', xs: 180 }}
                placeholder={tab === 'orders' ? t('orderStatus.pending') : t('records.allStatuses')}
                aria-label={t('records.allStatuses')}
                data={STATUSES[tab].map((s) => ({ value: s, label: statusLabel(s) }))}
                value={status}
                clearable
                onChange={(v) => {
                  setStatus(v);
                  setPage(1);
                }}
                data-testid="records-status"
              />
            ) : null}
            {tab === 'history' ? (
              <Select
                size="sm"
                w={{ base: '48%', xs: 160 }}
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
            ) : null}
            <Button variant="subtle" size="sm" onClick={reset} data-testid="records-reset">
              {t('records.reset')}
            </Button>
            <ExportCsvButton
              call="web/exportContractRecords"
              params={exportParams}
              filename={`contracts-${tab}.csv`}
            />
          </Group>
          <Tabs.Panel value="history">
            <HistoryList items={history.data?.items} loading={history.isPending} />
          </Tabs.Panel>
          <Tabs.Panel value="orders">
            <OrdersList items={orders.data?.items} loading={orders.isPending} />
          </Tabs.Panel>
          <Tabs.Panel value="closes">
            <ClosesList items={closes.data?.items} loading={closes.isPending} />
          </Tabs.Panel>
          <Tabs.Panel value="funding">
            <FundingList items={funding.data?.items} loading={funding.isPending} />
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
