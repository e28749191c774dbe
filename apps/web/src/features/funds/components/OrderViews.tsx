import { bpsPercentText, moneyScaleOf } from '@bourse/money';
import { type FundOrderData, LOCALE_OF } from '@bourse/protocol';
import { Num } from '@bourse/ui';
import { Badge, Button, Card, Group, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useLang } from '../../../lib/i18n.ts';
import { cut, signOfText } from '../logic.ts';

const USDT = moneyScaleOf('USDT');
const STATE_COLOR = { buying: 'blue', in_custody: 'green', redeeming: 'orange', redeemed: 'gray' } as const;

function useDate() {
  const lang = useLang();
  return (ms: number) =>
    new Intl.DateTimeFormat(LOCALE_OF[lang], { dateStyle: 'medium', timeStyle: 'short' }).format(ms);
}

export function StateBadge({ order }: { order: FundOrderData }) {
  const { t } = useTranslation('funds');
  return (
    <Badge
      color={STATE_COLOR[order.state]}
      variant="light"
      data-testid="etf-order-state"
      data-state={order.state}
    >
      {t(`orders.state.${order.state}`)}
    </Badge>
  );
}

function Pnl({ order }: { order: FundOrderData }) {
  const sign = signOfText(order.pnl);
  return (
    <Group gap={4} wrap="nowrap" justify="flex-end">
      <Num
        value={order.pnl}
        kind="money"
        scale={USDT}
        signed
        trend={sign === 0 ? 'none' : sign > 0 ? 'up' : 'down'}
      />
      <Num
        value={order.pnl_pct}
        decimals={2}
        percent
        signed
        trend={sign === 0 ? 'none' : sign > 0 ? 'up' : 'down'}
        size="xs"
      />
    </Group>
  );
}

/** The holdings of an order: quantity, value now, weight against the target; then cash. */
function Holdings({ order }: { order: FundOrderData }) {
  const { t } = useTranslation('funds');
  return (
    <Stack gap={2}>
      {order.holdings.map((h) => (
        <Group key={h.asset} justify="space-between" gap="xs" wrap="nowrap">
          <Text size="xs" translate="no">
            <Num value={h.quantity} /> {h.asset}
          </Text>
          <Text size="xs" c="dimmed">
            <Num value={h.value} kind="money" scale={USDT} /> · {bpsPercentText(h.weight_bps)}% /{' '}
            {bpsPercentText(h.target_bps)}%
          </Text>
        </Group>
      ))}
      <Group justify="space-between" gap="xs">
        <Text size="xs">{t('orders.cash')}</Text>
        <Num value={order.cash} kind="money" scale={USDT} size="xs" suffix=" USDT" />
      </Group>
    </Stack>
  );
}

function Redeem({ order, onRedeem }: { order: FundOrderData; onRedeem: (o: FundOrderData) => void }) {
  const { t } = useTranslation('funds');
  if (order.state !== 'in_custody') return null;
  return (
    <Button size="xs" variant="light" color="red" onClick={() => onRedeem(order)} data-testid="etf-redeem">
      {t('orders.redeem')}
    </Button>
  );
}

function ReturnedInKind({ order }: { order: FundOrderData }) {
  const { t } = useTranslation('funds');
  if (order.returned_in_kind.length === 0) return null;
  const items = order.returned_in_kind.map((r) => `${r.quantity} ${r.asset}`).join(', ');
  return (
    <Text size="xs" c="orange">
      {t('orders.returnedInKind', { items })}
    </Text>
  );
}

/** Phones: one card per order. */
export function OrderCards({
  orders,
  onRedeem,
}: {
  orders: FundOrderData[];
  onRedeem: (o: FundOrderData) => void;
}) {
  const { t } = useTranslation('funds');
  const date = useDate();
  return (
    <Stack gap="sm">
      {orders.map((o) => (
        <Card key={o.order_id} withBorder radius="md" p="sm" data-testid="etf-order-card">
          <Stack gap={6}>
            <Group justify="space-between">
              <Text size="sm" fw={600}>
                {date(o.created_at)}
              </Text>
              <StateBadge order={o} />
            </Group>
            <Group justify="space-between">
              <Text size="xs" c="dimmed">
                {t('orders.cost')}
              </Text>
              <Num value={o.cost} kind="money" scale={USDT} suffix=" USDT" size="sm" />
            </Group>
            <Group justify="space-between">
              <Text size="xs" c="dimmed">
                {o.state === 'redeemed' ? t('orders.proceeds') : t('orders.value')}
              </Text>
              <Num
                value={o.proceeds ?? o.value}
                kind="money"
                scale={USDT}
                suffix=" USDT"
                size="sm"
                fw={700}
                data-testid="etf-order-value"
              />
            </Group>
            <Group justify="space-between">
              <Text size="xs" c="dimmed">
                {t('orders.pnl')}
              </Text>
              <Pnl order={o} />
            </Group>
            <Group justify="space-between">
              <Text size="xs" c="dimmed">
                {t('orders.units')} · {t('orders.nav')}
              </Text>
              <Text size="xs">
                <Num value={cut(o.units, 4)} /> · <Num value={cut(o.nav, 4)} />
              </Text>
            </Group>
            {o.state !== 'redeemed' ? <Holdings order={o} /> : null}
            <ReturnedInKind order={o} />
            <Redeem order={o} onRedeem={onRedeem} />
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}

/** Desktop: a table, the holdings in a column. */
export function OrderTable({
  orders,
  onRedeem,
}: {
  orders: FundOrderData[];
  onRedeem: (o: FundOrderData) => void;
}) {
  const { t } = useTranslation('funds');
  const date = useDate();
  return (
    <Table verticalSpacing="sm" fz="sm" highlightOnHover data-testid="etf-order-table">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('orders.created')}</Table.Th>
          <Table.Th>{t('orders.stateTitle')}</Table.Th>
          <Table.Th ta="right">{t('orders.cost')}</Table.Th>
          <Table.Th ta="right">{t('orders.units')}</Table.Th>
          <Table.Th ta="right">{t('orders.navAtPurchase')}</Table.Th>
          <Table.Th ta="right">{t('orders.nav')}</Table.Th>
          <Table.Th w={280}>{t('orders.holdings')}</Table.Th>
          <Table.Th ta="right">{t('orders.value')}</Table.Th>
          <Table.Th ta="right">{t('orders.pnl')}</Table.Th>
          <Table.Th ta="right">{t('orders.fees')}</Table.Th>
          <Table.Th />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {orders.map((o) => (
          <Table.Tr key={o.order_id} data-testid="etf-order-row">
            <Table.Td>{date(o.created_at)}</Table.Td>
            <Table.Td>
              <StateBadge order={o} />
            </Table.Td>
            <Table.Td ta="right">
              <Num value={o.cost} kind="money" scale={USDT} />
            </Table.Td>
            <Table.Td ta="right">
              <Num value={cut(o.units, 4)} />
            </Table.Td>
            <Table.Td ta="right">
              <Num value={cut(o.nav_at_purchase, 4)} />
            </Table.Td>
            <Table.Td ta="right">
              <Num value={cut(o.nav, 4)} />
            </Table.Td>
            <Table.Td>
              {o.state !== 'redeemed' ? <Holdings order={o} /> : <ReturnedInKind order={o} />}
            </Table.Td>
            <Table.Td ta="right">
              <Num
                value={o.proceeds ?? o.value}
                kind="money"
                scale={USDT}
                fw={700}
                data-testid="etf-order-value"
              />
              {o.state === 'redeemed' ? (
                <Text size="xs" c="dimmed">
                  {t('orders.proceeds')}
                </Text>
              ) : null}
            </Table.Td>
            <Table.Td ta="right">
              <Pnl order={o} />
            </Table.Td>
            <Table.Td ta="right">
              <Num value={o.fees} kind="money" scale={USDT} />
            </Table.Td>
            <Table.Td>
              <Redeem order={o} onRedeem={onRedeem} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
