import type { FundModelId, FundOrderState } from '@bourse/protocol';
import { Badge, Group, Pagination, Select, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { Amount, ErrorNote, Figure } from '../../app/ui.tsx';
import { type OrdersFilter, useOrders } from './api.ts';

const PAGE_SIZE = 20;
const STATES: FundOrderState[] = ['buying', 'in_custody', 'redeeming', 'redeemed'];

/** Every customer's ETF orders with filters: model, state, book. */
export function OrdersTab() {
  const { t } = useTranslation('adminFunds');
  const lang = useLang();
  const [model, setModel] = useState<FundModelId | null>(null);
  const [state, setState] = useState<FundOrderState | null>(null);
  const [book, setBook] = useState<'real' | 'demo' | null>(null);
  const [page, setPage] = useState(1);
  const filter: OrdersFilter = {
    ...(model ? { model_id: model } : {}),
    ...(state ? { state } : {}),
    ...(book ? { book } : {}),
    page,
    page_size: PAGE_SIZE,
  };
  const orders = useOrders(filter);
  const total = orders.data?.total ?? 0;
  const reset = (fn: () => void) => {
    fn();
    setPage(1);
  };
  return (
    <Stack>
      <Group>
        <Select
          placeholder={t('orders.model')}
          clearable
          value={model}
          onChange={(v) => reset(() => setModel(v as FundModelId | null))}
          data={(['balanced', 'low_risk'] as const).map((m) => ({
            value: m,
            label: t(`orders.models.${m}`),
          }))}
          data-testid="funds-filter-model"
        />
        <Select
          placeholder={t('orders.state')}
          clearable
          value={state}
          onChange={(v) => reset(() => setState(v as FundOrderState | null))}
          data={STATES.map((s) => ({ value: s, label: t(`orders.states.${s}`) }))}
          data-testid="funds-filter-state"
        />
        <Select
          placeholder={t('orders.book')}
          clearable
          value={book}
          onChange={(v) => reset(() => setBook(v as 'real' | 'demo' | null))}
          data={(['real', 'demo'] as const).map((b) => ({ value: b, label: t(`orders.books.${b}`) }))}
        />
      </Group>
      <ErrorNote error={orders.error} />
      <Table.ScrollContainer minWidth={1100}>
        <Table fz="sm" verticalSpacing="xs" data-testid="funds-orders-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('orders.created')}</Table.Th>
              <Table.Th>{t('orders.customer')}</Table.Th>
              <Table.Th>{t('orders.model')}</Table.Th>
              <Table.Th>{t('orders.state')}</Table.Th>
              <Table.Th>{t('orders.book')}</Table.Th>
              <Table.Th ta="right">{t('orders.cost')}</Table.Th>
              <Table.Th ta="right">{t('orders.units')}</Table.Th>
              <Table.Th ta="right">{t('orders.value')}</Table.Th>
              <Table.Th ta="right">{t('orders.pnl')}</Table.Th>
              <Table.Th ta="right">{t('orders.fees')}</Table.Th>
              <Table.Th ta="right">{t('orders.trades')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(orders.data?.items ?? []).map((o) => (
              <Table.Tr key={o.order_id} data-testid="funds-order-row">
                <Table.Td>
                  <Figure>{formatTime(o.created_at, lang)}</Figure>
                </Table.Td>
                <Table.Td>{o.customer_label}</Table.Td>
                <Table.Td>{o.model_name}</Table.Td>
                <Table.Td>
                  <Badge variant="light">{t(`orders.states.${o.state}`)}</Badge>
                </Table.Td>
                <Table.Td>{t(`orders.books.${o.book}`)}</Table.Td>
                <Table.Td ta="right">
                  <Amount value={o.cost} currency="USDT" />
                </Table.Td>
                <Table.Td ta="right">
                  <Figure>{o.units}</Figure>
                </Table.Td>
                <Table.Td ta="right">
                  <Amount value={o.proceeds ?? o.value} currency="USDT" />
                </Table.Td>
                <Table.Td ta="right">
                  <Amount value={o.pnl} currency="USDT" signed />
                </Table.Td>
                <Table.Td ta="right">
                  <Amount value={o.fees} currency="USDT" />
                </Table.Td>
                <Table.Td ta="right">
                  <Figure>{o.legs.length}</Figure>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {total === 0 && !orders.isPending ? <Text c="dimmed">{t('orders.empty')}</Text> : null}
      {total > PAGE_SIZE ? (
        <Pagination total={Math.ceil(total / PAGE_SIZE)} value={page} onChange={setPage} />
      ) : null}
    </Stack>
  );
}
