import { moneyScaleOf } from '@bourse/money';
import { ledgerReasonKey, type RecordItem, type RecordKind, type RecordRefKind } from '@bourse/protocol';
import { Num } from '@bourse/ui';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  Pagination,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../../lib/format.ts';
import { useLang } from '../../../lib/i18n.ts';
import { downloadRecordsCsv, type RecordFilter, useRecords } from '../../../shared/records/api.ts';

const PAGE_SIZE = 20;
const ACCOUNT_TYPES = ['spot', 'contract', 'options', 'earn', 'funding'] as const;
const CURRENCIES = ['USDT', 'BTC', 'ETH', 'TRX'] as const;

/** Label of a record type: a ledger reason's label (`records.reason.*`) or a business type's. */
export function useTypeLabel() {
  const { t, i18n } = useTranslation('assets');
  return (type: string) => {
    const reason = ledgerReasonKey(type);
    if (i18n.exists(reason, { ns: 'assets' })) return t(reason as 'records.reason.transfer');
    return i18n.exists(`records.type.${type}`, { ns: 'assets' })
      ? t(`records.type.${type}` as 'records.type.transfer')
      : type;
  };
}

/** The screen that shows each kind of business object a record belongs to. */
export const REF_SCREENS: Readonly<Record<RecordRefKind, string>> = {
  spot_order: '/currencyRecord',
  deposit: '/rechargeRecord',
  withdrawal: '/tbjl',
  transfer: '/transfer',
  contract: '/contractRecord',
  option: '/optionRecord',
};

/** A link to the order, deposit or withdrawal a record belongs to (none on that list itself). */
export function RefLink({ item, kind }: { item: Pick<RecordItem, 'ref'>; kind: RecordKind }) {
  const { t } = useTranslation('assets');
  const ref = item.ref;
  if (!ref || (kind === 'recharge' && ref.kind === 'deposit')) return null;
  return (
    <Anchor
      component={Link}
      to={REF_SCREENS[ref.kind]}
      size="xs"
      data-testid="record-ref"
      data-ref={ref.kind}
    >
      {t(`records.ref.${ref.kind}`)}
    </Anchor>
  );
}

export function StatusBadge({ item }: { item: Pick<RecordItem, 'status' | 'held' | 'failure'> }) {
  const { t } = useTranslation('assets');
  if (item.held) {
    return (
      <Badge color="orange" variant="light" data-testid="record-held">
        {t('records.held')}
      </Badge>
    );
  }
  const color = item.status === 2 ? 'teal' : item.status === 1 ? 'blue' : 'red';
  return (
    <Badge color={color} variant="light" data-status={item.status}>
      {item.status === 0 && item.failure
        ? t('records.failedWith', { reason: item.failure })
        : t(`records.status.${item.status}`)}
    </Badge>
  );
}

function dayStart(value: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  return String(new Date(`${value}T00:00:00`).getTime());
}

export type RecordListProps = {
  kind: RecordKind;
  /** Show the account-type filter (journal kinds). */
  accountFilter?: boolean;
  /** Hide the title (when the screen has its own). */
  bare?: boolean;
  pageSize?: number;
  testId?: string;
};

/**
 * The generic record list: filters (type, currency, account, status, dates), a table on wide
 * screens and cards on phones, pages, and CSV export from the server. Any record kind of
 * `web/getRecords` uses it: the journal kinds, deposits and withdrawals.
 */
export function RecordList({
  kind,
  accountFilter = false,
  bare = false,
  pageSize = PAGE_SIZE,
  testId,
}: RecordListProps) {
  const { t } = useTranslation('assets');
  const lang = useLang();
  const typeLabel = useTypeLabel();
  const [page, setPage] = useState(1);
  const [type, setType] = useState<string | null>(null);
  const [currency, setCurrency] = useState<string | null>(null);
  const [account, setAccount] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [exporting, setExporting] = useState(false);

  const endMs = dayStart(to);
  const filter: RecordFilter = {
    kind,
    type: type ?? undefined,
    currency: currency ?? undefined,
    account_type: account ?? undefined,
    status: (status as RecordFilter['status']) ?? undefined,
    start_time: dayStart(from),
    end_time: endMs ? String(Number(endMs) + 86_400_000) : undefined,
  };
  const query = useRecords({ ...filter, page, page_size: pageSize });
  const data = query.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.page_size)) : 1;
  const reset = () => {
    setType(null);
    setCurrency(null);
    setAccount(null);
    setStatus(null);
    setFrom('');
    setTo('');
    setPage(1);
  };
  const on =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
    };

  const exportCsv = async () => {
    setExporting(true);
    try {
      const count = await downloadRecordsCsv(filter);
      notifications.show({ color: 'teal', message: t('records.exported', { count }) });
    } catch (error) {
      notifications.show({ color: 'red', message: (error as Error).message });
    } finally {
      setExporting(false);
    }
  };

  const any = t('records.filter.any');
  return (
    <Stack gap="md" data-testid={testId ?? `records-${kind}`}>
      <Group justify="space-between" align="center">
        {bare ? (
          <span />
        ) : (
          <Title order={1} size="h3">
            {t(`records.title.${kind}`)}
          </Title>
        )}
        <Button variant="light" onClick={exportCsv} loading={exporting} data-testid="records-export">
          {t('records.export')}
        </Button>
      </Group>
      <Paper withBorder radius="md" p="sm">
        <SimpleGrid cols={{ base: 2, sm: 3, lg: accountFilter ? 7 : 6 }} spacing="sm">
          <Select
            label={t('records.filter.type')}
            placeholder={any}
            clearable
            data={(data?.types ?? []).map((v) => ({ value: v, label: typeLabel(v) }))}
            value={type}
            onChange={on(setType)}
            data-testid="records-filter-type"
          />
          <Select
            label={t('records.filter.currency')}
            placeholder={any}
            clearable
            data={[...CURRENCIES]}
            value={currency}
            onChange={on(setCurrency)}
            data-testid="records-filter-currency"
          />
          {accountFilter && (
            <Select
              label={t('records.filter.account')}
              placeholder={any}
              clearable
              data={ACCOUNT_TYPES.map((v) => ({ value: v, label: t(`accountType.${v}`) }))}
              value={account}
              onChange={on(setAccount)}
              data-testid="records-filter-account"
            />
          )}
          <Select
            label={t('records.filter.status')}
            placeholder={any}
            clearable
            data={(['2', '1', '0'] as const).map((v) => ({ value: v, label: t(`records.status.${v}`) }))}
            value={status}
            onChange={on(setStatus)}
            data-testid="records-filter-status"
          />
          <TextInput
            type="date"
            label={t('records.filter.from')}
            value={from}
            onChange={(e) => on(setFrom)(e.currentTarget.value)}
            data-testid="records-filter-from"
          />
          <TextInput
            type="date"
            label={t('records.filter.to')}
            value={to}
            onChange={(e) => on(setTo)(e.currentTarget.value)}
            data-testid="records-filter-to"
          />
          <Stack justify="flex-end">
            <Button variant="subtle" onClick={reset}>
              {t('records.filter.reset')}
            </Button>
          </Stack>
        </SimpleGrid>
      </Paper>

      {query.isPending ? (
        <Group justify="center" py="xl">
          <Loader />
        </Group>
      ) : query.isError ? (
        <Alert color="red">
          <Group justify="space-between">
            <Text size="sm">{(query.error as Error).message}</Text>
            <Button size="xs" variant="light" onClick={() => query.refetch()}>
              {t('common.retry')}
            </Button>
          </Group>
        </Alert>
      ) : data && data.items.length === 0 ? (
        <Paper withBorder radius="md" p="xl">
          <Text c="dimmed" ta="center" data-testid="records-empty">
            {t('records.empty')}
          </Text>
        </Paper>
      ) : (
        <>
          <Paper withBorder radius="md" visibleFrom="sm">
            <Table.ScrollContainer minWidth={760}>
              <Table striped highlightOnHover verticalSpacing="sm" data-testid="records-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('records.column.time')}</Table.Th>
                    <Table.Th>{t('records.column.type')}</Table.Th>
                    <Table.Th>{t('records.column.currency')}</Table.Th>
                    <Table.Th ta="right">{t('records.column.amount')}</Table.Th>
                    <Table.Th>{t('records.column.account')}</Table.Th>
                    <Table.Th>{t('records.column.status')}</Table.Th>
                    <Table.Th>{t('records.column.detail')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data?.items.map((item) => (
                    <Table.Tr key={item.id} data-testid="record-row">
                      <Table.Td>
                        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                          {formatDateTime(item.time, lang)}
                        </Text>
                      </Table.Td>
                      <Table.Td>{typeLabel(item.type)}</Table.Td>
                      <Table.Td>{item.currency}</Table.Td>
                      <Table.Td ta="right">
                        <Num
                          value={item.amount}
                          decimals={moneyScaleOf(item.currency)}
                          trend={kind === 'recharge' ? 'none' : 'auto'}
                          signed={kind !== 'recharge'}
                        />
                      </Table.Td>
                      <Table.Td>
                        {item.account_type
                          ? t(`accountType.${item.account_type}` as 'accountType.spot')
                          : '—'}
                      </Table.Td>
                      <Table.Td>
                        <StatusBadge item={item} />
                      </Table.Td>
                      <Table.Td>
                        <Group gap="xs" wrap="nowrap">
                          {item.detail ? (
                            <Text
                              size="xs"
                              c="dimmed"
                              lineClamp={1}
                              maw={240}
                              title={item.detail}
                              translate="no"
                            >
                              {item.detail}
                            </Text>
                          ) : null}
                          <RefLink item={item} kind={kind} />
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Paper>
          <Stack gap="xs" hiddenFrom="sm" data-testid="records-cards">
            {data?.items.map((item) => (
              <Card key={item.id} withBorder radius="md" padding="sm" data-testid="record-card">
                <Group justify="space-between" wrap="nowrap">
                  <Text fw={600} size="sm">
                    {typeLabel(item.type)} · {item.currency}
                  </Text>
                  <StatusBadge item={item} />
                </Group>
                <Group justify="space-between" mt={4} wrap="nowrap">
                  <Text size="xs" c="dimmed">
                    {formatDateTime(item.time, lang)}
                    {item.account_type
                      ? ` · ${t(`accountType.${item.account_type}` as 'accountType.spot')}`
                      : ''}
                  </Text>
                  <Num
                    value={item.amount}
                    decimals={moneyScaleOf(item.currency)}
                    fw={600}
                    trend={kind === 'recharge' ? 'none' : 'auto'}
                    signed={kind !== 'recharge'}
                  />
                </Group>
                {(item.detail || item.ref) && (
                  <Group justify="space-between" gap="xs" mt={2} wrap="nowrap">
                    <Text size="xs" c="dimmed" truncate="end" translate="no">
                      {item.detail}
                    </Text>
                    <RefLink item={item} kind={kind} />
                  </Group>
                )}
              </Card>
            ))}
          </Stack>
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              {t('records.totalRows', { count: data?.total ?? 0 })}
            </Text>
            <Pagination
              total={pages}
              value={page}
              onChange={setPage}
              size="sm"
              data-testid="records-pagination"
            />
          </Group>
        </>
      )}
    </Stack>
  );
}
