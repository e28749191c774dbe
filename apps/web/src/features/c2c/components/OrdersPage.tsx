import { C2C_STATES, type C2cOrderData, type C2cState } from '@bourse/protocol';
import { Button, Group, Paper, Select, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useToken } from '../../../lib/session.ts';
import { useC2cOrders } from '../api.ts';
import { C2C_ROUTES, counterpartyOf, deadlineOf } from '../logic.ts';
import {
  Amount,
  C2cPage,
  Countdown,
  ErrorNote,
  Fact,
  Loading,
  LoginPrompt,
  StateBadge,
  useC2cWords,
  WIDE,
} from './parts.tsx';

const PAGE_SIZE = 20;

function Counterparty({ order }: { order: C2cOrderData }) {
  const { t } = useTranslation('c2c');
  return <>{counterpartyOf(order) ?? t('orders.merchantSide')}</>;
}

function DeadlineCell({ order }: { order: C2cOrderData }) {
  const deadline = deadlineOf(order);
  return deadline ? <Countdown at={deadline.at} testId="order-countdown" /> : <>—</>;
}

function OrderCard({ order }: { order: C2cOrderData }) {
  const { t } = useTranslation('c2c');
  const words = useC2cWords();
  return (
    <Paper
      withBorder
      radius="lg"
      p="md"
      component={Link}
      to={C2C_ROUTES.order(order.order_id)}
      style={{ color: 'inherit', textDecoration: 'none' }}
      data-testid="c2c-order-row"
      data-order={order.order_id}
      data-state={order.state}
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Stack gap={0} miw={0}>
            <Text fw={700} c={order.side === 'buy' ? 'teal' : 'red'}>
              {words.side(order.side)} {order.coin}
            </Text>
            <Text
              size="xs"
              c="dimmed"
              ff="monospace"
              data-testid="order-number"
              style={{ overflowWrap: 'anywhere' }}
            >
              {order.order_id}
            </Text>
          </Stack>
          <StateBadge state={order.state} />
        </Group>
        <SimpleGrid cols={2} spacing="sm">
          <Fact label={t('orders.amount')}>
            <Amount value={order.amount} currency={order.coin} testId="order-amount" />
          </Fact>
          <Fact label={t('orders.total')}>
            <Amount value={order.fiat_amount} currency={order.fiat} fiat testId="order-total" />
          </Fact>
          <Fact label={t('orders.counterparty')}>
            <Counterparty order={order} />
          </Fact>
          <Fact label={t('orders.time')}>{words.time(order.created_at)}</Fact>
        </SimpleGrid>
        {deadlineOf(order) ? (
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              {t('orders.deadline')}
            </Text>
            <DeadlineCell order={order} />
          </Group>
        ) : null}
      </Stack>
    </Paper>
  );
}

function OrderTable({ items }: { items: C2cOrderData[] }) {
  const { t } = useTranslation('c2c');
  const words = useC2cWords();
  const navigate = useNavigate();
  return (
    <Table verticalSpacing="sm" fz="sm" highlightOnHover data-testid="c2c-orders-table">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('orders.number')}</Table.Th>
          <Table.Th>{t('orders.side')}</Table.Th>
          <Table.Th ta="right">{t('orders.amount')}</Table.Th>
          <Table.Th ta="right">{t('orders.total')}</Table.Th>
          <Table.Th>{t('orders.counterparty')}</Table.Th>
          <Table.Th>{t('orders.time')}</Table.Th>
          <Table.Th>{t('orders.deadline')}</Table.Th>
          <Table.Th>{t('orders.state')}</Table.Th>
          <Table.Th />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {items.map((order) => (
          <Table.Tr
            key={order.order_id}
            onClick={() => navigate(C2C_ROUTES.order(order.order_id))}
            style={{ cursor: 'pointer' }}
            data-testid="c2c-order-row"
            data-order={order.order_id}
            data-state={order.state}
          >
            <Table.Td ff="monospace" data-testid="order-number">
              {order.order_id}
            </Table.Td>
            <Table.Td c={order.side === 'buy' ? 'teal' : 'red'} fw={600}>
              {words.side(order.side)} {order.coin}
            </Table.Td>
            <Table.Td ta="right">
              <Amount value={order.amount} currency={order.coin} testId="order-amount" />
            </Table.Td>
            <Table.Td ta="right">
              <Amount value={order.fiat_amount} currency={order.fiat} fiat testId="order-total" />
            </Table.Td>
            <Table.Td>
              <Counterparty order={order} />
            </Table.Td>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>{words.time(order.created_at)}</Table.Td>
            <Table.Td>
              <DeadlineCell order={order} />
            </Table.Td>
            <Table.Td>
              <StateBadge state={order.state} />
            </Table.Td>
            <Table.Td ta="right">
              <Button
                component={Link}
                to={C2C_ROUTES.order(order.order_id)}
                size="xs"
                variant="light"
                onClick={(e: React.MouseEvent) => e.stopPropagation()}
                data-testid="order-open"
              >
                {t('orders.open')}
              </Button>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** `/c2c_order`: my orders with their states, a filter, and a countdown on the live ones. */
export function OrdersPage() {
  const { t } = useTranslation('c2c');
  const words = useC2cWords();
  const token = useToken();
  const wide = useMediaQuery(WIDE, true, { getInitialValueInEffect: false });
  const [state, setState] = useState<C2cState | null>(null);
  const [page, setPage] = useState(1);
  const orders = useC2cOrders({ state: state ?? undefined, page, page_size: PAGE_SIZE });
  const pages = orders.data ? Math.max(1, Math.ceil(orders.data.total / PAGE_SIZE)) : 1;
  return (
    <C2cPage title={t('orders.title')} section="orders" testId="c2c-orders">
      {token === null ? (
        <LoginPrompt />
      ) : (
        <>
          <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
            <Select
              label={t('orders.filter')}
              value={state}
              onChange={(value) => {
                setState(value as C2cState | null);
                setPage(1);
              }}
              placeholder={t('orders.all')}
              clearable
              data={C2C_STATES.map((s) => ({ value: s, label: words.state(s) }))}
              w={240}
              data-testid="c2c-orders-filter"
              comboboxProps={{ withinPortal: false }}
            />
            <Button component={Link} to={C2C_ROUTES.offers} variant="light" data-testid="c2c-orders-new">
              {t('orders.newOrder')}
            </Button>
          </Group>
          {orders.isPending ? (
            <Loading />
          ) : orders.isError ? (
            <ErrorNote error={orders.error} retry={() => void orders.refetch()} />
          ) : orders.data.items.length === 0 ? (
            <Text c="dimmed" data-testid="c2c-orders-empty">
              {state ? t('orders.emptyFilter') : t('orders.empty')}
            </Text>
          ) : (
            <>
              {wide ? (
                <OrderTable items={orders.data.items} />
              ) : (
                <Stack gap="sm" data-testid="c2c-orders-cards">
                  {orders.data.items.map((order) => (
                    <OrderCard key={order.order_id} order={order} />
                  ))}
                </Stack>
              )}
              {pages > 1 ? (
                <Group justify="center" gap="sm" data-testid="c2c-orders-pages">
                  <Button size="xs" variant="default" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                    {t('orders.prev')}
                  </Button>
                  <Text size="sm">{t('orders.page', { page, pages })}</Text>
                  <Button
                    size="xs"
                    variant="default"
                    disabled={page >= pages}
                    onClick={() => setPage(page + 1)}
                  >
                    {t('orders.next')}
                  </Button>
                </Group>
              ) : null}
            </>
          )}
        </>
      )}
    </C2cPage>
  );
}
