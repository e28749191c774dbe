import { EARN_ORDER_STATES, type EarnKind, type EarnOrderData, type EarnOrderState } from '@bourse/protocol';
import {
  Anchor,
  Button,
  Group,
  Loader,
  Pagination,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useToken } from '../../../lib/session.ts';
import { useProfitOrders } from '../api.ts';
import { canRedeem, pageCount, profitSoFar } from '../logic.ts';
import { OrderDetail } from './OrderDetail.tsx';
import { LoginPrompt } from './ProductsPage.tsx';
import { Fact, KIND_ROUTES, Money, OrderStateBadge, Rate, useEarnWords, WIDE } from './parts.tsx';
import { RedeemDialog } from './RedeemDialog.tsx';

const PAGE_SIZE = 10;
type Filter = 'all' | EarnOrderState;

type RowProps = { order: EarnOrderData; onOpen: () => void; onRedeem: () => void };

/** One order as a card (phones): the spec's custody fields, details and redeem at the bottom. */
function OrderCard({ order, onOpen, onRedeem }: RowProps) {
  const { t } = useTranslation('earn');
  const words = useEarnWords();
  return (
    <Paper
      withBorder
      radius="lg"
      p="md"
      data-testid="earn-order"
      data-order={order.order_id}
      data-state={order.state}
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Text fw={700}>{order.product_name}</Text>
          <OrderStateBadge state={order.state} />
        </Group>
        <SimpleGrid cols={2} spacing="sm">
          <Fact label={t('orders.amount')}>
            <Money value={order.amount} currency={order.currency} testId="order-amount" />
          </Fact>
          <Fact label={t('orders.accrued')}>
            <Money value={profitSoFar(order)} currency={order.currency} testId="order-accrued" />
          </Fact>
          <Fact label={t('orders.cycle')}>{words.days(order.term_days)}</Fact>
          <Fact label={t('orders.dailyRate')}>
            <Rate value={order.daily_rate} />
          </Fact>
          <Fact label={t('orders.daysLeft')} testId="order-days-left">
            {t('orders.daysLeftValue', { count: order.days_left })}
          </Fact>
          <Fact label={t('orders.created')}>{words.time(order.created_at)}</Fact>
        </SimpleGrid>
        <Group grow>
          <Button variant="default" onClick={onOpen} data-testid="order-details">
            {t('orders.details')}
          </Button>
          {canRedeem(order.state, order.redeem_rule) ? (
            <Button color="orange" variant="light" onClick={onRedeem} data-testid="order-redeem">
              {t('orders.redeem')}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Paper>
  );
}

function OrderRow({ order, onOpen, onRedeem }: RowProps) {
  const { t } = useTranslation('earn');
  const words = useEarnWords();
  return (
    <Table.Tr data-testid="earn-order" data-order={order.order_id} data-state={order.state}>
      <Table.Td fw={600}>{order.product_name}</Table.Td>
      <Table.Td ta="right">
        <Money value={order.amount} currency={order.currency} testId="order-amount" />
      </Table.Td>
      <Table.Td>{words.days(order.term_days)}</Table.Td>
      <Table.Td>
        <Rate value={order.daily_rate} />
      </Table.Td>
      <Table.Td ta="right">
        <Money value={profitSoFar(order)} currency={order.currency} testId="order-accrued" />
      </Table.Td>
      <Table.Td data-testid="order-days-left">
        {t('orders.daysLeftValue', { count: order.days_left })}
      </Table.Td>
      <Table.Td>{words.time(order.created_at)}</Table.Td>
      <Table.Td>
        <OrderStateBadge state={order.state} />
      </Table.Td>
      <Table.Td>
        <Group gap={6} wrap="nowrap">
          <Button size="xs" variant="default" onClick={onOpen} data-testid="order-details">
            {t('orders.details')}
          </Button>
          {canRedeem(order.state, order.redeem_rule) ? (
            <Button size="xs" color="orange" variant="light" onClick={onRedeem} data-testid="order-redeem">
              {t('orders.redeem')}
            </Button>
          ) : null}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

function OrderTable({
  items,
  open,
  redeem,
}: {
  items: EarnOrderData[];
  open: (o: EarnOrderData) => void;
  redeem: (o: EarnOrderData) => void;
}) {
  const { t } = useTranslation('earn');
  return (
    <Table.ScrollContainer minWidth={1000}>
      <Table
        verticalSpacing="sm"
        fz="sm"
        highlightOnHover
        style={{ whiteSpace: 'nowrap' }}
        data-testid="earn-orders-table"
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('orders.product')}</Table.Th>
            <Table.Th ta="right">{t('orders.amount')}</Table.Th>
            <Table.Th>{t('orders.cycle')}</Table.Th>
            <Table.Th>{t('orders.dailyRate')}</Table.Th>
            <Table.Th ta="right">{t('orders.accrued')}</Table.Th>
            <Table.Th>{t('orders.daysLeft')}</Table.Th>
            <Table.Th>{t('orders.created')}</Table.Th>
            <Table.Th>{t('orders.status')}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((o) => (
            <OrderRow key={o.order_id} order={o} onOpen={() => open(o)} onRedeem={() => redeem(o)} />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The state filter: segments on desktop, a select on phones (five segments do not fit 390 px). */
function StateFilter({
  value,
  onChange,
  wide,
}: {
  value: Filter;
  onChange: (f: Filter) => void;
  wide: boolean;
}) {
  const { t } = useTranslation('earn');
  const words = useEarnWords();
  const data = [
    { value: 'all', label: t('orders.all') },
    ...EARN_ORDER_STATES.map((s) => ({ value: s, label: words.orderState(s) })),
  ];
  return wide ? (
    <SegmentedControl
      value={value}
      onChange={(v) => onChange(v as Filter)}
      data={data}
      data-testid="earn-orders-filter"
    />
  ) : (
    <Select
      value={value}
      onChange={(v) => v && onChange(v as Filter)}
      data={data}
      allowDeselect={false}
      aria-label={t('orders.status')}
      data-testid="earn-orders-filter"
    />
  );
}

function OrdersPage({ kind }: { kind: EarnKind }) {
  const { t } = useTranslation('earn');
  const token = useToken();
  const wide = useMediaQuery(WIDE, window.matchMedia(WIDE).matches, { getInitialValueInEffect: false });
  const [filter, setFilter] = useState<Filter>('all');
  const [page, setPage] = useState(1);
  const [opened, setOpened] = useState<EarnOrderData | null>(null);
  const [redeeming, setRedeeming] = useState<EarnOrderData | null>(null);
  const orders = useProfitOrders({
    kind,
    ...(filter !== 'all' ? { state: filter } : {}),
    page,
    page_size: PAGE_SIZE,
  });
  const items = orders.data?.items ?? [];
  const total = orders.data?.total ?? 0;
  // The open detail follows the list as it is re-read (accrued profit, state, the product's name in a
  // newly chosen language); the row as clicked stands in while the list loads.
  const openedNow = opened ? (items.find((o) => o.order_id === opened.order_id) ?? opened) : null;
  const redeem = (order: EarnOrderData) => {
    setOpened(null);
    setRedeeming(order);
  };
  return (
    <Stack gap="md" py={{ base: 'md', sm: 'xl' }} data-testid="earn-orders-page" data-kind={kind}>
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Title order={1} fz={{ base: 22, sm: 28 }}>
          {kind === 'vip' ? t('orders.titleVip') : t('orders.titleCustody')}
        </Title>
        <Anchor component={Link} to={KIND_ROUTES[kind].index} size="sm" data-testid="earn-orders-back">
          {t('orders.back')}
        </Anchor>
      </Group>
      {token === null ? (
        <LoginPrompt text={t('orders.login')} />
      ) : (
        <Paper withBorder={wide} radius="lg" p={wide ? 'md' : 0}>
          <Stack gap="md">
            <StateFilter
              value={filter}
              wide={wide}
              onChange={(f) => {
                setFilter(f);
                setPage(1);
              }}
            />
            {orders.isPending ? (
              <Loader size="sm" />
            ) : items.length === 0 ? (
              <Text size="sm" c="dimmed" ta="center" py="lg" data-testid="earn-orders-empty">
                {t('orders.empty')}
              </Text>
            ) : wide ? (
              <OrderTable items={items} open={setOpened} redeem={redeem} />
            ) : (
              <Stack gap="sm" data-testid="earn-orders-cards">
                {items.map((o) => (
                  <OrderCard
                    key={o.order_id}
                    order={o}
                    onOpen={() => setOpened(o)}
                    onRedeem={() => redeem(o)}
                  />
                ))}
              </Stack>
            )}
            <Group justify="space-between" wrap="wrap">
              <Text size="sm" c="dimmed" data-testid="earn-orders-total" data-total={total}>
                {t('orders.total', { count: total })}
              </Text>
              <Pagination total={pageCount(total, PAGE_SIZE)} value={page} onChange={setPage} size="sm" />
            </Group>
          </Stack>
        </Paper>
      )}
      <OrderDetail order={openedNow} onClose={() => setOpened(null)} onRedeem={redeem} />
      <RedeemDialog order={redeeming} onClose={() => setRedeeming(null)} />
    </Stack>
  );
}

/** /profit_wdtg: my custody orders. */
export function CustodyOrdersPage() {
  return <OrdersPage kind="custody" />;
}

/** /vip_wdtg: my VIP orders. */
export function VipOrdersPage() {
  return <OrdersPage kind="vip" />;
}
