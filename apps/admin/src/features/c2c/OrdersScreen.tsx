import { type AdminC2cOrderData, C2C_STATES, type C2cState } from '@bourse/protocol';
import { Button, Card, Group, Pagination, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { Amount, ErrorNote, Figure } from '../../app/ui.tsx';
import { PAGE_SIZE, useC2cOrders } from './api.ts';
import { OrderDrawer } from './OrderDrawer.tsx';
import { OrderStateBadge } from './parts.tsx';

const LIVE = 'live';

/** The deadline that matters now: pay by (matched), confirm by (paid), the dispute's answer (disputed). */
export function deadlineOf(o: AdminC2cOrderData): number | null {
  if (o.state === 'matched' || o.state === 'pending_match') return o.pay_by;
  if (o.state === 'paid') return o.confirm_by;
  if (o.state === 'disputed') return o.dispute?.respond_by ?? null;
  return null;
}

export function OrderRow({
  o,
  onOpen,
  testId,
}: {
  o: AdminC2cOrderData;
  onOpen: () => void;
  testId: string;
}) {
  const { t } = useTranslation('adminC2c');
  const lang = useLang();
  return (
    <Table.Tr data-testid={testId} data-order={o.order_id} data-state={o.state}>
      <Table.Td>
        <Figure>{o.order_id}</Figure>
        <Text size="xs" c="dimmed">
          {formatTime(o.created_at, lang)}
        </Text>
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{t(`side.${o.side}`)}</Table.Td>
      <Table.Td>
        <Text size="sm">{o.merchant_name}</Text>
        <Text size="xs" c="dimmed">
          {o.merchant_uid ?? '—'}
        </Text>
      </Table.Td>
      <Table.Td>
        <Figure>{o.customer_uid ?? '—'}</Figure>
      </Table.Td>
      <Table.Td data-testid="c2c-order-amount">
        <Amount value={o.amount} currency={o.coin} suffix />
      </Table.Td>
      <Table.Td data-testid="c2c-order-fiat">
        <Amount value={o.fiat_amount} currency={o.fiat} suffix />
      </Table.Td>
      <Table.Td>
        <OrderStateBadge state={o.state} />
        {o.awaiting_second ? (
          <Text size="xs" c="orange" data-testid="c2c-order-awaiting">
            {t('disputes.awaiting')}
          </Text>
        ) : null}
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }} data-testid="c2c-order-deadline">
        {formatTime(deadlineOf(o), lang)}
      </Table.Td>
      <Table.Td>
        <Button size="compact-xs" variant="subtle" onClick={onOpen} data-testid={`${testId}-open`}>
          {t('common.details')}
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}

export const ORDER_HEADS = [
  'number',
  'side',
  'merchant',
  'customer',
  'amount',
  'fiat',
  'state',
  'deadline',
  'actions',
] as const;

/** C2C orders: the live ones (matched, paid, disputed) by default, or one state; an order drawer. */
export default function OrdersScreen() {
  const { t } = useTranslation('adminC2c');
  const [state, setState] = useState<string>(LIVE);
  const [page, setPage] = useState(1);
  const [shown, setShown] = useState<string | null>(null);
  const orders = useC2cOrders({ ...(state === LIVE ? {} : { state: state as C2cState }), page });
  const items = orders.data?.items ?? [];
  const total = orders.data?.total ?? 0;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('orders.title')}</Title>
        <Button variant="default" size="xs" onClick={() => void orders.refetch()}>
          {t('common.refresh')}
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        {t('orders.intro')}
      </Text>
      <Select
        label={t('orders.state')}
        data={[
          { value: LIVE, label: t('orders.live') },
          ...C2C_STATES.map((s) => ({ value: s, label: t(`state.${s}`) })),
        ]}
        value={state}
        onChange={(v) => {
          setState(v ?? LIVE);
          setPage(1);
        }}
        allowDeselect={false}
        w={260}
        data-testid="c2c-orders-state"
      />
      <ErrorNote error={orders.error} />
      <Card withBorder>
        {items.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="c2c-orders-empty">
            {t('common.empty')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={1200}>
            <Table fz="sm" verticalSpacing={6} striped data-testid="c2c-orders">
              <Table.Thead>
                <Table.Tr>
                  {ORDER_HEADS.map((h) => (
                    <Table.Th key={h}>{t(`orders.${h}`)}</Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((o) => (
                  <OrderRow key={o.order_id} o={o} testId="c2c-order" onOpen={() => setShown(o.order_id)} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <Group justify="space-between" mt="sm">
          <Text size="sm" c="dimmed" data-testid="c2c-orders-total" data-total={total}>
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
      <OrderDrawer orderId={shown} onClose={() => setShown(null)} />
    </Stack>
  );
}
