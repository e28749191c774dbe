import { type AdminEarnOrderData, EARN_ORDER_STATES, type EarnOrderState } from '@bourse/protocol';
import { Card, Group, Pagination, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { Amount, ErrorNote, useAmountText } from '../../app/ui.tsx';
import { type OrderFilter, useEarnOrders, useEarnProducts } from './api.ts';
import { OrderStateBadge, useRateText } from './parts.tsx';

const PAGE_SIZE = 50;

function OrderRow({ order }: { order: AdminEarnOrderData }) {
  const { t } = useTranslation('adminEarn');
  const lang = useLang();
  const rate = useRateText();
  const amountText = useAmountText();
  const r = order.redemption;
  return (
    <Table.Tr data-testid="earn-admin-order" data-order={order.order_id} data-state={order.state}>
      <Table.Td>{formatTime(order.created_at, lang)}</Table.Td>
      <Table.Td>
        <Text size="sm">{order.product_name}</Text>
        <Text size="xs" c="dimmed">
          {order.order_id}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{order.uid}</Text>
        <Text size="xs" c="dimmed">
          {order.customer_id} · {order.book}
        </Text>
      </Table.Td>
      <Table.Td>
        <Amount value={order.amount} currency={order.currency} suffix />
      </Table.Td>
      <Table.Td>{t('products.days', { days: order.term_days })}</Table.Td>
      <Table.Td>{rate(order.annual_rate)}</Table.Td>
      <Table.Td>
        <Amount value={order.accrued} currency={order.currency} />
      </Table.Td>
      <Table.Td>
        {order.days_accrued} / {order.days_left}
      </Table.Td>
      <Table.Td>
        <OrderStateBadge state={order.state} />
      </Table.Td>
      <Table.Td>{formatTime(order.matures_at, lang)}</Table.Td>
      <Table.Td style={{ maxWidth: 320 }}>
        {r ? (
          <Text size="xs">
            {t('orders.redemptionValue', {
              returned: amountText(r.principal_returned, order.currency),
              forfeited: amountText(r.rewards_forfeited, order.currency),
              penalty: amountText(r.penalty, order.currency),
              arrives: formatTime(r.arrives_at, lang),
            })}
          </Text>
        ) : (
          '—'
        )}
      </Table.Td>
    </Table.Tr>
  );
}

/** Earn orders across customers: product, state and customer filters, in pages. Read only. */
export default function OrdersScreen() {
  const { t } = useTranslation('adminEarn');
  const lang = useLang();
  const products = useEarnProducts();
  const [product, setProduct] = useState<string | null>(null);
  const [state, setState] = useState<EarnOrderState | null>(null);
  const [uid, setUid] = useState('');
  const [page, setPage] = useState(1);
  const filter: OrderFilter = {
    ...(product ? { product_id: product } : {}),
    ...(state ? { state } : {}),
    ...(uid.trim() ? { uid: uid.trim() } : {}),
    page,
    page_size: PAGE_SIZE,
  };
  const orders = useEarnOrders(filter);
  const items = orders.data?.items ?? [];
  const total = orders.data?.total ?? 0;
  const reset = () => setPage(1);
  return (
    <Stack>
      <Title order={2}>{t('orders.title')}</Title>
      <Group align="flex-end">
        <Select
          label={t('orders.product')}
          placeholder={t('common.all')}
          clearable
          data={(products.data?.items ?? []).map((p) => ({ value: p.product_id, label: p.names[lang] }))}
          value={product}
          onChange={(v) => {
            setProduct(v);
            reset();
          }}
          data-testid="earn-orders-product"
        />
        <Select
          label={t('orders.state')}
          placeholder={t('common.all')}
          clearable
          data={EARN_ORDER_STATES.map((s) => ({ value: s, label: t(`orderState.${s}`) }))}
          value={state}
          onChange={(v) => {
            setState(v as EarnOrderState | null);
            reset();
          }}
          data-testid="earn-orders-state"
        />
        <TextInput
          label={t('orders.uid')}
          value={uid}
          onChange={(e) => {
            setUid(e.currentTarget.value);
            reset();
          }}
          data-testid="earn-orders-uid"
        />
      </Group>
      <ErrorNote error={orders.error} />
      <Card withBorder>
        {items.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('common.empty')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={1300}>
            <Table fz="sm" verticalSpacing={6} striped data-testid="earn-admin-orders">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('orders.created')}</Table.Th>
                  <Table.Th>{t('orders.product')}</Table.Th>
                  <Table.Th>{t('orders.customer')}</Table.Th>
                  <Table.Th>{t('orders.amount')}</Table.Th>
                  <Table.Th>{t('orders.term')}</Table.Th>
                  <Table.Th>{t('orders.rate')}</Table.Th>
                  <Table.Th>{t('orders.accrued')}</Table.Th>
                  <Table.Th>{t('orders.days')}</Table.Th>
                  <Table.Th>{t('orders.state')}</Table.Th>
                  <Table.Th>{t('orders.matures')}</Table.Th>
                  <Table.Th>{t('orders.redemption')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((o) => (
                  <OrderRow key={o.order_id} order={o} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <Group justify="space-between" mt="md">
          <Text size="sm" c="dimmed" data-testid="earn-admin-orders-total" data-total={total}>
            {t('orders.total', { count: total })}
          </Text>
          <Pagination
            total={Math.max(1, Math.ceil(total / PAGE_SIZE))}
            value={page}
            onChange={setPage}
            size="sm"
          />
        </Group>
      </Card>
    </Stack>
  );
}
