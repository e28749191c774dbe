import {
  Anchor,
  Button,
  Group,
  Pagination,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useOptionInstruments } from '../../../shared/market/api/getOptions.ts';
import { ExportCsvButton } from '../../../shared/records/ExportCsvButton.tsx';
import { type OptionOrderFilter, useOptionOrders } from '../api/getOptionOrders.ts';
import { HistoryTable } from './HistoryTable.tsx';

const PAGE_SIZE = 20;
const DAY_MS = 86_400_000;
const RANGES = ['all', '1', '7', '30', '90'] as const;
type Range = (typeof RANGES)[number];
type StatusFilter = 'all' | 'open' | 'settled';
const WIDE = '(min-width: 62em)';

/** /optionRecord: every option of the customer, filtered by instrument, status and period, in pages. */
export function OptionRecordsPage() {
  const { t } = useTranslation('options');
  const wide = useMediaQuery(WIDE, window.matchMedia(WIDE).matches, { getInitialValueInEffect: false });
  const instruments = useOptionInstruments();
  const [symbol, setSymbol] = useState<string | null>(null);
  const [status, setStatus] = useState<StatusFilter>('all');
  const [range, setRange] = useState<Range>('all');
  // The start is fixed when the period is chosen, so the query key stays stable while paging.
  const [since, setSince] = useState<number | undefined>(undefined);
  const [page, setPage] = useState(1);

  const chooseRange = (value: Range) => {
    setRange(value);
    setSince(value === 'all' ? undefined : Date.now() - Number(value) * DAY_MS);
    setPage(1);
  };
  const filter: OptionOrderFilter = {
    ...(symbol ? { symbol } : {}),
    ...(status !== 'all' ? { status } : {}),
    ...(since ? { start_time: since } : {}),
    page,
    page_size: PAGE_SIZE,
  };
  const orders = useOptionOrders(filter, { refetchMs: status === 'settled' ? undefined : 5_000 });
  const total = orders.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const reset = () => {
    setSymbol(null);
    setStatus('all');
    chooseRange('all');
  };

  return (
    <Stack gap="md" py={{ base: 'md', sm: 'xl' }} data-testid="option-records-page">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Title order={1} fz={{ base: 22, sm: 28 }}>
          {t('records.title')}
        </Title>
        <Anchor component={Link} to="/options" size="sm" data-testid="option-records-back">
          {t('records.back')}
        </Anchor>
      </Group>
      <Paper withBorder radius="md" p={{ base: 'xs', sm: 'md' }}>
        <Group gap="sm" mb="md" wrap="wrap" align="flex-end">
          <Select
            size="sm"
            w={{ base: '100%', xs: 200 }}
            placeholder={t('records.allSymbols')}
            aria-label={t('records.allSymbols')}
            data={(instruments.data ?? []).map((i) => ({ value: i.symbol, label: i.symbol }))}
            value={symbol}
            clearable
            searchable
            translate="no"
            onChange={(v) => {
              setSymbol(v);
              setPage(1);
            }}
            data-testid="records-symbol"
          />
          <SegmentedControl
            size="sm"
            value={status}
            onChange={(v) => {
              setStatus(v as StatusFilter);
              setPage(1);
            }}
            data={[
              { value: 'all', label: t('records.allStatuses') },
              { value: 'open', label: t('records.open') },
              { value: 'settled', label: t('records.settled') },
            ]}
            data-testid="records-status"
          />
          <Select
            size="sm"
            w={{ base: '60%', xs: 160 }}
            aria-label={t('records.period')}
            data={RANGES.map((r) => ({
              value: r,
              label:
                r === 'all'
                  ? t('records.allTime')
                  : r === '1'
                    ? t('records.lastDay')
                    : t('records.lastDays', { count: Number(r) }),
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
            call="web/exportOptionRecords"
            params={{ symbol: filter.symbol, status: filter.status, start_time: filter.start_time }}
            filename="options.csv"
          />
        </Group>
        <HistoryTable items={orders.data?.items} loading={orders.isPending} compact={!wide} />
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
