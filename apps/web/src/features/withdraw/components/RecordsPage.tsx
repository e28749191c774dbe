import type { WithdrawalView } from '@bourse/protocol';
import { Num } from '@bourse/ui';
import {
  Badge,
  Button,
  Group,
  Loader,
  Pagination,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format.ts';
import { useLang } from '../../../lib/i18n.ts';
import { exportUrl, type RecordFilter, useCancelWithdraw, useWithdrawList } from '../api/index.ts';
import { FormAlert } from './FormAlert.tsx';
import { PayoutDetail } from './PayoutDetail.tsx';

const WithdrawSheet = lazy(() => import('./WithdrawSheet.tsx').then((m) => ({ default: m.WithdrawSheet })));

const PAGE_SIZE = 10;
const STATUS_COLOR = { 0: 'red', 1: 'yellow', 2: 'teal' } as const;

function dayStart(value: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  return new Date(`${value}T00:00:00`).getTime();
}

/**
 * One status a customer reads: the request's state ("Awaiting review", "Sending", "Completed",
 * "Cancelled"), and for a failed or rejected one "Failed: <reason>" — never "Failed · Cancelled".
 */
function StatusBadge({ row }: { row: WithdrawalView }) {
  const { t } = useTranslation('withdraw');
  const failed = row.state === 'failed' || row.state === 'rejected';
  const color = row.state === 'cancelled' ? 'gray' : STATUS_COLOR[row.status];
  return (
    <Badge color={color} variant="light" data-testid="record-status" data-state={row.state}>
      {failed && row.reject_reason
        ? t('records.failedWith', { reason: row.reject_reason })
        : t(`records.state.${row.state}`)}
    </Badge>
  );
}

/** /tbjl (every withdrawal) and /addcardRecord (bank-card withdrawals): filters, pages, CSV, cancel. */
export function RecordsPage({ method }: { method?: 'bank' }) {
  const { t } = useTranslation('withdraw');
  const lang = useLang();
  const [status, setStatus] = useState<'' | '0' | '1' | '2'>('');
  const [methodFilter, setMethodFilter] = useState<'' | 'address' | 'bank'>(method ?? '');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(1);
  const [sheet, setSheet] = useState(false);
  const cancel = useCancelWithdraw();
  const fromMs = dayStart(from);
  const toMs = dayStart(to);
  const filter: RecordFilter = {
    ...(status ? { status } : {}),
    ...(methodFilter ? { method: methodFilter } : {}),
    ...(fromMs !== undefined ? { start_time: fromMs } : {}),
    ...(toMs !== undefined ? { end_time: toMs + 86_400_000 } : {}),
    page,
    page_size: PAGE_SIZE,
  };
  const list = useWithdrawList(filter);
  const rows = list.data?.list ?? [];
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / PAGE_SIZE));
  const { page: _p, page_size: _s, ...exportFilter } = filter;

  const onCancel = (id: string) =>
    cancel.mutate(id, {
      onSuccess: () => notifications.show({ color: 'teal', message: t('records.cancelled') }),
    });

  const cancelButton = (row: WithdrawalView) =>
    row.can_cancel ? (
      <Button
        size="compact-sm"
        variant="light"
        color="red"
        loading={cancel.isPending}
        onClick={() => onCancel(row.id)}
        data-testid="record-cancel"
      >
        {t('records.cancel')}
      </Button>
    ) : null;

  return (
    <Stack gap="md" py={{ base: 'md', sm: 40 }} data-testid={method ? 'addcard-record-page' : 'tbjl-page'}>
      <Group justify="space-between" align="flex-end">
        <Title order={1} size="h2">
          {method ? t('records.addcard') : t('records.tbjl')}
        </Title>
        <Group gap="xs">
          <Button onClick={() => setSheet(true)} data-testid="records-new-withdrawal">
            {t('records.newWithdrawal')}
          </Button>
          <Button
            component="a"
            variant="light"
            href={exportUrl(exportFilter)}
            download="withdrawals.csv"
            data-testid="records-export"
          >
            {t('records.export')}
          </Button>
        </Group>
      </Group>
      <Paper withBorder radius="md" p="sm">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('records.filterStatus')}
            </Text>
            <SegmentedControl
              value={status || 'all'}
              onChange={(v) => {
                setStatus(v === 'all' ? '' : (v as '0' | '1' | '2'));
                setPage(1);
              }}
              data={[
                { value: 'all', label: t('records.all') },
                { value: '1', label: t('records.status.1') },
                { value: '2', label: t('records.status.2') },
                { value: '0', label: t('records.status.0') },
              ]}
              data-testid="records-status"
            />
          </Stack>
          {method ? null : (
            <Select
              label={t('records.filterMethod')}
              w={160}
              value={methodFilter || 'all'}
              onChange={(v) => {
                setMethodFilter(v === 'all' || !v ? '' : (v as 'address' | 'bank'));
                setPage(1);
              }}
              allowDeselect={false}
              data={[
                { value: 'all', label: t('records.all') },
                { value: 'address', label: t('records.methods.address') },
                { value: 'bank', label: t('records.methods.bank') },
              ]}
            />
          )}
          <TextInput
            type="date"
            label={t('records.from')}
            value={from}
            onChange={(e) => setFrom(e.currentTarget.value)}
            w={170}
          />
          <TextInput
            type="date"
            label={t('records.to')}
            value={to}
            onChange={(e) => setTo(e.currentTarget.value)}
            w={170}
          />
        </Group>
      </Paper>
      <FormAlert error={list.error ?? cancel.error} testId="records-error" />
      {list.isLoading ? (
        <Group justify="center" py="xl">
          <Loader size="sm" />
        </Group>
      ) : rows.length === 0 ? (
        <Text c="dimmed" ta="center" py="xl" data-testid="records-empty">
          {t('records.empty')}
        </Text>
      ) : (
        <>
          <Paper withBorder radius="md" visibleFrom="sm">
            <Table striped highlightOnHover verticalSpacing="sm" data-testid="records-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('records.columns.time')}</Table.Th>
                  <Table.Th>{t('records.columns.currency')}</Table.Th>
                  <Table.Th>{t('records.columns.destination')}</Table.Th>
                  <Table.Th ta="right">{t('records.columns.amount')}</Table.Th>
                  <Table.Th ta="right">{t('records.columns.fee')}</Table.Th>
                  <Table.Th ta="right">{t('records.columns.received')}</Table.Th>
                  <Table.Th>{t('records.columns.status')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((row) => (
                  <Table.Tr key={row.id} data-testid="record-row">
                    <Table.Td>{formatDateTime(row.created_at, lang)}</Table.Td>
                    <Table.Td>
                      {row.currency}{' '}
                      <Text span size="xs" c="dimmed">
                        {row.chain}
                      </Text>
                    </Table.Td>
                    <Table.Td maw={280}>
                      <Text size="sm" truncate="end" title={row.destination} translate="no">
                        {row.destination}
                      </Text>
                      <PayoutDetail row={row} />
                    </Table.Td>
                    <Table.Td ta="right">
                      <Num value={row.amount} />
                    </Table.Td>
                    <Table.Td ta="right">
                      <Num value={row.fee} />
                    </Table.Td>
                    <Table.Td ta="right">
                      <Num value={row.received} />
                    </Table.Td>
                    <Table.Td>
                      <StatusBadge row={row} />
                    </Table.Td>
                    <Table.Td>{cancelButton(row)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Paper>
          <Stack gap="sm" hiddenFrom="sm" data-testid="records-cards">
            {rows.map((row) => (
              <Paper key={row.id} withBorder radius="md" p="sm" data-testid="record-card">
                <Group justify="space-between" align="flex-start" wrap="nowrap">
                  <Stack gap={2} style={{ minWidth: 0 }}>
                    <Text fw={600}>
                      <Num value={row.amount} /> {row.currency}
                    </Text>
                    <Text size="xs" c="dimmed" truncate="end" translate="no">
                      {row.destination}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {formatDateTime(row.created_at, lang)} · {t('records.columns.fee')}{' '}
                      <Num value={row.fee} />
                    </Text>
                    <PayoutDetail row={row} />
                  </Stack>
                  <Stack gap={6} align="flex-end" style={{ flexShrink: 0 }}>
                    <StatusBadge row={row} />
                    {cancelButton(row)}
                  </Stack>
                </Group>
              </Paper>
            ))}
          </Stack>
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              {t('records.total', { count: list.data?.total ?? 0 })}
            </Text>
            <Pagination value={page} onChange={setPage} total={pages} size="sm" />
          </Group>
        </>
      )}
      {sheet ? (
        <Suspense fallback={null}>
          <WithdrawSheet currency="USDT" opened={sheet} onClose={() => setSheet(false)} />
        </Suspense>
      ) : null}
    </Stack>
  );
}

export function TbjlPage() {
  return <RecordsPage />;
}

export function AddcardRecordPage() {
  return <RecordsPage method="bank" />;
}
