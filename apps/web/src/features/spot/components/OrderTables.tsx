import { moneyScaleOf } from '@bourse/money';
import type { SpotFillData, SpotOrderData } from '@bourse/protocol';
import { Num, trendColor, useNumSettings } from '@bourse/ui';
import {
  Badge,
  Box,
  Button,
  Card,
  Group,
  Loader,
  ScrollArea,
  SimpleGrid,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format.ts';
import { useLang } from '../../../lib/i18n.ts';
import { useSpotMarkets } from '../../../shared/market/api/getSpotMarkets.ts';
import { useCancelOrder } from '../api/cancelOrder.ts';

type Scales = { price?: number; quantity?: number; quote?: string };

/** Price and quantity scales of every spot market (cached catalogue), for the shared formatters. */
function useSpotScales(): (symbol: string) => Scales {
  const markets = useSpotMarkets();
  const bySymbol = useMemo(
    () =>
      new Map(
        (markets.data ?? []).map((m) => [
          m.symbol,
          { price: m.price_scale, quantity: m.quantity_scale, quote: m.quote },
        ]),
      ),
    [markets.data],
  );
  return (symbol) => bySymbol.get(symbol) ?? {};
}

function SideText({ side }: { side: 'buy' | 'sell' }) {
  const { t } = useTranslation('trade');
  const { rise } = useNumSettings();
  return (
    <Text size="sm" fw={600} c={trendColor(side === 'buy' ? 'up' : 'down', rise)}>
      {t(`orders.sideName.${side}`)}
    </Text>
  );
}

function StatusBadge({ order }: { order: SpotOrderData }) {
  const { t } = useTranslation('trade');
  const color =
    order.status === 'filled'
      ? 'teal'
      : order.status === 'cancelled'
        ? 'gray'
        : order.status === 'partially_filled'
          ? 'blue'
          : 'yellow';
  return (
    <Badge variant="light" color={color} size="sm" data-testid="order-status" data-status={order.status}>
      {t(`orders.statusName.${order.status}`)}
    </Badge>
  );
}

function CancelButton({ order }: { order: SpotOrderData }) {
  const { t } = useTranslation('trade');
  const cancel = useCancelOrder();
  if (order.status !== 'unfilled' && order.status !== 'partially_filled') return null;
  return (
    <Button
      size="compact-xs"
      variant="light"
      color="red"
      loading={cancel.isPending}
      onClick={() =>
        cancel.mutate(order.order_id, {
          onSuccess: () => notifications.show({ color: 'teal', message: t('orders.cancelled') }),
          onError: (error) => notifications.show({ color: 'red', message: error.message }),
        })
      }
      data-testid="order-cancel"
    >
      {t('orders.cancel')}
    </Button>
  );
}

/** Label and value, for the mobile cards. */
function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      {children}
    </Stack>
  );
}

export function Empty({ text, loading }: { text: string; loading?: boolean }) {
  return (
    <Stack align="center" py="xl">
      {loading ? (
        <Loader size="sm" />
      ) : (
        <Text c="dimmed" size="sm">
          {text}
        </Text>
      )}
    </Stack>
  );
}

/** Orders: a table on wide screens, cards on phones. `cancel` shows the cancel action (current orders). */
export function OrdersTable({
  items,
  loading,
  cancel,
  showSymbol = true,
}: {
  items: SpotOrderData[] | undefined;
  loading: boolean;
  cancel: boolean;
  showSymbol?: boolean;
}) {
  const { t } = useTranslation('trade');
  const lang = useLang();
  const scales = useSpotScales();
  if (!items || items.length === 0) return <Empty text={t('orders.empty')} loading={loading && !items} />;
  const price = (o: SpotOrderData) =>
    o.price === null ? (
      <Text size="sm">{t('orders.marketPrice')}</Text>
    ) : (
      <Num value={o.price} kind="price" scale={scales(o.symbol).price} size="sm" />
    );
  return (
    <>
      <Box visibleFrom="sm">
        <ScrollArea type="auto">
          <Table striped highlightOnHover verticalSpacing={6} miw={900} data-testid="orders-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('orders.time')}</Table.Th>
                {showSymbol ? <Table.Th>{t('orders.symbol')}</Table.Th> : null}
                <Table.Th>{t('orders.side')}</Table.Th>
                <Table.Th>{t('orders.type')}</Table.Th>
                <Table.Th ta="right">{t('orders.price')}</Table.Th>
                <Table.Th ta="right">{t('orders.avgPrice')}</Table.Th>
                <Table.Th ta="right">{t('orders.qty')}</Table.Th>
                <Table.Th ta="right">{t('orders.filled')}</Table.Th>
                <Table.Th ta="right">{t('orders.fee')}</Table.Th>
                <Table.Th>{t('orders.status')}</Table.Th>
                {cancel ? <Table.Th>{t('orders.action')}</Table.Th> : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((o) => (
                <Table.Tr
                  key={o.order_id}
                  data-testid="order-row"
                  data-order-id={o.order_id}
                  data-status={o.status}
                >
                  <Table.Td>
                    <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                      {formatDateTime(o.created_at, lang)}
                    </Text>
                  </Table.Td>
                  {showSymbol ? (
                    <Table.Td translate="no">
                      <Text size="sm">{o.symbol}</Text>
                    </Table.Td>
                  ) : null}
                  <Table.Td>
                    <SideText side={o.side} />
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{t(`orders.typeName.${o.type}`)}</Text>
                  </Table.Td>
                  <Table.Td ta="right">{price(o)}</Table.Td>
                  <Table.Td ta="right">
                    <Num value={o.avg_price} kind="price" scale={scales(o.symbol).price} size="sm" />
                  </Table.Td>
                  <Table.Td ta="right">
                    <Num value={o.quantity} kind="quantity" scale={scales(o.symbol).quantity} size="sm" />
                  </Table.Td>
                  <Table.Td ta="right">
                    <Num
                      value={o.filled_quantity}
                      kind="quantity"
                      scale={scales(o.symbol).quantity}
                      size="sm"
                      data-testid="order-filled"
                    />
                  </Table.Td>
                  <Table.Td ta="right">
                    <Num
                      value={o.fee}
                      kind="money"
                      scale={moneyScaleOf(o.fee_currency)}
                      size="sm"
                      suffix={` ${o.fee_currency}`}
                    />
                  </Table.Td>
                  <Table.Td>
                    <StatusBadge order={o} />
                  </Table.Td>
                  {cancel ? (
                    <Table.Td>
                      <CancelButton order={o} />
                    </Table.Td>
                  ) : null}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      </Box>
      <Stack gap="xs" hiddenFrom="sm" data-testid="orders-cards">
        {items.map((o) => (
          <Card
            key={o.order_id}
            withBorder
            radius="md"
            padding="sm"
            data-testid="order-card"
            data-status={o.status}
          >
            <Group justify="space-between" mb={6}>
              <Group gap={6}>
                <SideText side={o.side} />
                <Text size="sm" fw={600} translate="no">
                  {o.symbol}
                </Text>
                <Text size="xs" c="dimmed">
                  {t(`orders.typeName.${o.type}`)}
                </Text>
              </Group>
              <StatusBadge order={o} />
            </Group>
            <SimpleGrid cols={3} spacing={6}>
              <Field label={t('orders.price')}>{price(o)}</Field>
              <Field label={t('orders.qty')}>
                <Num value={o.quantity} kind="quantity" scale={scales(o.symbol).quantity} size="sm" />
              </Field>
              <Field label={t('orders.filled')}>
                <Num value={o.filled_quantity} kind="quantity" scale={scales(o.symbol).quantity} size="sm" />
              </Field>
            </SimpleGrid>
            <Group justify="space-between" mt={6}>
              <Text size="xs" c="dimmed">
                {formatDateTime(o.created_at, lang)}
              </Text>
              {cancel ? <CancelButton order={o} /> : null}
            </Group>
          </Card>
        ))}
      </Stack>
    </>
  );
}

/** The customer's fills. */
export function FillsTable({ items, loading }: { items: SpotFillData[] | undefined; loading: boolean }) {
  const { t } = useTranslation('trade');
  const lang = useLang();
  const scales = useSpotScales();
  if (!items || items.length === 0)
    return <Empty text={t('orders.emptyFills')} loading={loading && !items} />;
  return (
    <>
      <Box visibleFrom="sm">
        <ScrollArea type="auto">
          <Table striped verticalSpacing={6} miw={800} data-testid="fills-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('orders.time')}</Table.Th>
                <Table.Th>{t('orders.symbol')}</Table.Th>
                <Table.Th>{t('orders.side')}</Table.Th>
                <Table.Th>{t('orders.role')}</Table.Th>
                <Table.Th ta="right">{t('orders.price')}</Table.Th>
                <Table.Th ta="right">{t('orders.qty')}</Table.Th>
                <Table.Th ta="right">{t('orders.amount')}</Table.Th>
                <Table.Th ta="right">{t('orders.fee')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((f) => (
                <Table.Tr key={`${f.trade_id}-${f.order_id}`} data-testid="fill-row">
                  <Table.Td>
                    <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                      {formatDateTime(f.time, lang)}
                    </Text>
                  </Table.Td>
                  <Table.Td translate="no">
                    <Text size="sm">{f.symbol}</Text>
                  </Table.Td>
                  <Table.Td>
                    <SideText side={f.side} />
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{t(`orders.roleName.${f.role}`)}</Text>
                  </Table.Td>
                  <Table.Td ta="right">
                    <Num value={f.price} kind="price" scale={scales(f.symbol).price} size="sm" />
                  </Table.Td>
                  <Table.Td ta="right">
                    <Num value={f.quantity} kind="quantity" scale={scales(f.symbol).quantity} size="sm" />
                  </Table.Td>
                  <Table.Td ta="right">
                    <Num
                      value={f.amount}
                      kind="money"
                      scale={moneyScaleOf(scales(f.symbol).quote ?? 'USDT')}
                      size="sm"
                    />
                  </Table.Td>
                  <Table.Td ta="right">
                    <Num
                      value={f.fee}
                      kind="money"
                      scale={moneyScaleOf(f.fee_currency)}
                      size="sm"
                      suffix={` ${f.fee_currency}`}
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      </Box>
      <Stack gap="xs" hiddenFrom="sm" data-testid="fills-cards">
        {items.map((f) => (
          <Card
            key={`${f.trade_id}-${f.order_id}`}
            withBorder
            radius="md"
            padding="sm"
            data-testid="fill-card"
          >
            <Group justify="space-between" mb={6}>
              <Group gap={6}>
                <SideText side={f.side} />
                <Text size="sm" fw={600} translate="no">
                  {f.symbol}
                </Text>
              </Group>
              <Text size="xs" c="dimmed">
                {t(`orders.roleName.${f.role}`)}
              </Text>
            </Group>
            <SimpleGrid cols={3} spacing={6}>
              <Field label={t('orders.price')}>
                <Num value={f.price} kind="price" scale={scales(f.symbol).price} size="sm" />
              </Field>
              <Field label={t('orders.qty')}>
                <Num value={f.quantity} kind="quantity" scale={scales(f.symbol).quantity} size="sm" />
              </Field>
              <Field label={t('orders.fee')}>
                <Num value={f.fee} kind="money" scale={moneyScaleOf(f.fee_currency)} size="sm" />
              </Field>
            </SimpleGrid>
            <Text size="xs" c="dimmed" mt={6}>
              {formatDateTime(f.time, lang)}
            </Text>
          </Card>
        ))}
      </Stack>
    </>
  );
}
