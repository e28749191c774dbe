import {
  type AdminPositionData,
  CONTRACT_POSITION_STATUSES,
  type ContractPositionStatus,
  DERIVATIVES_LIMITS,
  type DerivativesBook,
} from '@bourse/protocol';
import {
  Badge,
  Button,
  Card,
  Group,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { ErrorNote } from '../../app/ui.tsx';
import { type PositionsFilter, usePositions } from './api.ts';
import { type Column, DataTable, NoControlNote, Num, percentText, Signed } from './shared.tsx';

const STATUS_COLOR: Record<ContractPositionStatus, string> = {
  open: 'blue',
  closed: 'gray',
  liquidated: 'red',
  delivered: 'violet',
};

type Draft = {
  book: '' | DerivativesBook;
  symbol: string;
  customer: string;
  status: '' | ContractPositionStatus;
};

/** Contract positions across customers, filtered and paged; read only — the numbers are the server's. */
export default function PositionsScreen() {
  const { t } = useTranslation();
  const lang = useLang();
  const [draft, setDraft] = useState<Draft>({ book: '', symbol: '', customer: '', status: 'open' });
  const [filter, setFilter] = useState<PositionsFilter>({
    status: 'open',
    page: 1,
    page_size: DERIVATIVES_LIMITS.pageSizeDefault,
  });
  const positions = usePositions(filter);
  const pages = positions.data ? Math.max(1, Math.ceil(positions.data.total / positions.data.page_size)) : 1;

  const apply = (e: FormEvent) => {
    e.preventDefault();
    setFilter({
      book: draft.book || undefined,
      symbol: draft.symbol.trim().toUpperCase() || undefined,
      customer_id: draft.customer.trim() || undefined,
      status: draft.status || undefined,
      page: 1,
      page_size: DERIVATIVES_LIMITS.pageSizeDefault,
    });
  };

  const columns: Column<AdminPositionData>[] = [
    {
      key: 'position',
      label: t('derivatives.common.symbol'),
      render: (p) => (
        <Stack gap={0}>
          <Group gap={6} wrap="wrap" style={{ rowGap: 2 }}>
            <Text fw={600} size="sm" style={{ whiteSpace: 'nowrap' }}>
              {p.symbol}
            </Text>
            <Badge size="sm" variant="light" color={p.side === 'buy' ? 'teal' : 'red'} miw="max-content">
              {t(`derivatives.side.${p.side}`)} {p.leverage}×
            </Badge>
            <Badge size="sm" variant="outline" color="gray" miw="max-content">
              {t(`derivatives.book.${p.book}`)}
            </Badge>
          </Group>
          <Text size="xs" c="dimmed" ff="monospace" style={{ wordBreak: 'break-all' }}>
            {p.position_id}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'customer',
      label: t('derivatives.positions.customer'),
      render: (p) => (
        <Stack gap={0}>
          <Text size="sm">{p.customer_label}</Text>
          <Text size="xs" c="dimmed" ff="monospace" style={{ wordBreak: 'break-all' }}>
            {p.customer_id}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'status',
      wide: true,
      label: `${t('derivatives.common.status')} / ${t('derivatives.positions.opened')}`,
      render: (p) => (
        <Stack gap={0} align="flex-start">
          <Badge color={STATUS_COLOR[p.status]} variant="light" miw="max-content">
            {t(`derivatives.positionStatus.${p.status}`)}
          </Badge>
          {p.close_reason ? (
            <Text size="xs" c="dimmed">
              {t(`derivatives.closeReason.${p.close_reason}`)}
            </Text>
          ) : null}
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {formatTime(p.opened_at, lang)}
          </Text>
          {p.closed_at ? (
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {formatTime(p.closed_at, lang)}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      key: 'lots',
      label: t('derivatives.positions.lots'),
      align: 'right',
      render: (p) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Num>{p.lots}</Num>
          <Text size="sm">/</Text>
          <Num>{p.opened_lots}</Num>
        </Group>
      ),
    },
    {
      key: 'open',
      label: t('derivatives.positions.openPrice'),
      align: 'right',
      render: (p) => <Num>{p.open_price}</Num>,
    },
    {
      key: 'now',
      label: `${t('derivatives.positions.currentPrice')} / ${t('derivatives.positions.markPrice')}`,
      align: 'right',
      render: (p) =>
        p.status === 'open' ? (
          <Stack gap={0} align="flex-end">
            <Num>{p.current_price}</Num>
            <Num>{p.mark_price}</Num>
          </Stack>
        ) : (
          <Stack gap={0} align="flex-end">
            <Num>{p.close_price}</Num>
            {p.close_price_source ? (
              <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                {t('derivatives.positions.closeSource', {
                  price: p.close_price,
                  source: p.close_price_source,
                  time: formatTime(p.close_price_at, lang),
                })}
              </Text>
            ) : null}
          </Stack>
        ),
    },
    {
      key: 'margin',
      label: t('derivatives.positions.margin'),
      align: 'right',
      render: (p) => <Num>{p.margin}</Num>,
    },
    {
      key: 'fees',
      wide: true,
      label: `${t('derivatives.positions.fee')} / ${t('derivatives.positions.funding')}`,
      align: 'right',
      render: (p) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Num>{p.fee}</Num>
          <Text size="sm">/</Text>
          <Signed value={p.funding} />
        </Group>
      ),
    },
    {
      key: 'pnl',
      label: `${t('derivatives.positions.unrealized')} / ${t('derivatives.positions.realized')}`,
      align: 'right',
      render: (p) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Signed value={p.unrealized_pnl} />
          <Text size="sm">/</Text>
          <Signed value={p.realized_pnl} />
        </Group>
      ),
    },
    {
      key: 'risk',
      label: t('derivatives.positions.risk'),
      align: 'right',
      render: (p) => (
        <Num>{`${percentText(p.risk_rate, lang)} / ${percentText(p.liquidation_level, lang)}`}</Num>
      ),
    },
    {
      key: 'liq',
      label: `${t('derivatives.positions.liquidationPrice')} · ${t('derivatives.positions.tpsl')}`,
      align: 'right',
      render: (p) => (
        <Stack gap={0} align="flex-end">
          <Num>{p.liquidation_price}</Num>
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {`${p.tp_price ?? '—'} / ${p.sl_price ?? '—'}`}
          </Text>
        </Stack>
      ),
    },
  ];

  return (
    <Stack data-testid="positions-screen">
      <Title order={2}>{t('derivatives.positions.title')}</Title>
      <NoControlNote />
      <Card withBorder>
        <form onSubmit={apply}>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 5 }} verticalSpacing="sm">
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                {t('derivatives.book.label')}
              </Text>
              <SegmentedControl
                value={draft.book || 'all'}
                onChange={(v) => setDraft({ ...draft, book: v === 'all' ? '' : (v as DerivativesBook) })}
                data={[
                  { value: 'all', label: t('derivatives.common.all') },
                  { value: 'real', label: t('derivatives.book.real') },
                  { value: 'demo', label: t('derivatives.book.demo') },
                ]}
                data-testid="positions-book"
              />
            </Stack>
            <TextInput
              label={t('derivatives.common.symbol')}
              value={draft.symbol}
              onChange={(e) => setDraft({ ...draft, symbol: e.currentTarget.value })}
              placeholder="BTC/USDT-PERP"
              maxLength={32}
              data-testid="positions-symbol"
            />
            <TextInput
              label={t('derivatives.positions.customerId')}
              value={draft.customer}
              onChange={(e) => setDraft({ ...draft, customer: e.currentTarget.value })}
              placeholder="usr_…"
              maxLength={DERIVATIVES_LIMITS.idMax}
              data-testid="positions-customer"
            />
            <Select
              label={t('derivatives.common.status')}
              value={draft.status || 'all'}
              onChange={(v) =>
                setDraft({ ...draft, status: !v || v === 'all' ? '' : (v as ContractPositionStatus) })
              }
              data={[
                { value: 'all', label: t('derivatives.common.all') },
                ...CONTRACT_POSITION_STATUSES.map((s) => ({
                  value: s,
                  label: t(`derivatives.positionStatus.${s}`),
                })),
              ]}
              allowDeselect={false}
              data-testid="positions-status"
            />
            <Button type="submit" style={{ alignSelf: 'flex-end' }} data-testid="positions-apply">
              {t('derivatives.positions.filter')}
            </Button>
          </SimpleGrid>
        </form>
      </Card>
      <ErrorNote error={positions.error} />
      {positions.data ? (
        <>
          <DataTable
            rows={positions.data.items}
            columns={columns}
            rowKey={(p) => p.position_id}
            rowAttrs={(p) => ({ 'data-symbol': p.symbol, 'data-status': p.status })}
            testId="positions-table"
            rowTestId="position-row"
          />
          <Group justify="space-between" wrap="wrap">
            <Text size="sm" c="dimmed" data-testid="positions-total">
              {t('derivatives.positions.total', { total: positions.data.total })} ·{' '}
              {t('derivatives.positions.page', { page: filter.page, pages })}
            </Text>
            <Group gap="xs">
              <Button
                variant="default"
                size="xs"
                disabled={filter.page <= 1}
                onClick={() => setFilter({ ...filter, page: filter.page - 1 })}
              >
                {t('derivatives.positions.previous')}
              </Button>
              <Button
                variant="default"
                size="xs"
                disabled={filter.page >= pages}
                onClick={() => setFilter({ ...filter, page: filter.page + 1 })}
                data-testid="positions-next"
              >
                {t('derivatives.positions.next')}
              </Button>
            </Group>
          </Group>
        </>
      ) : null}
    </Stack>
  );
}
