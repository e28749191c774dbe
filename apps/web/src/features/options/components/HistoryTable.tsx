import type { OptionOrderData } from '@bourse/protocol';
import { Num } from '@bourse/ui';
import { Badge, Group, Loader, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ratePercent, signOf } from '../logic.ts';
import { DirectionBadge } from './DirectionBadge.tsx';
import { useOptionWords } from './labels.ts';

function StatusBadge({ order }: { order: OptionOrderData }) {
  const words = useOptionWords();
  return (
    <Badge
      color={words.statusColor(order.status)}
      variant="light"
      data-testid="history-status"
      data-status={order.status}
    >
      {words.status(order.status)}
    </Badge>
  );
}

/** A recorded price with its source and time underneath. */
function RecordedPrice({
  price,
  source,
  at,
  testId,
}: {
  price: string | null;
  source: string | null;
  at: number | null;
  testId: string;
}) {
  const words = useOptionWords();
  return (
    <Stack gap={0}>
      <Num value={price} size="sm" fw={600} data-testid={testId} data-value={price ?? ''} />
      {price !== null ? (
        <Text size="xs" c="dimmed">
          {words.source(source)} · {words.clock(at)}
        </Text>
      ) : null}
    </Stack>
  );
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      {children}
    </Stack>
  );
}

/** One option as a card (phones). */
function HistoryCard({ order }: { order: OptionOrderData }) {
  const { t } = useTranslation('options');
  const words = useOptionWords();
  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      data-testid="history-row"
      data-order={order.order_id}
      data-status={order.status}
    >
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap">
          <Group gap={6} wrap="nowrap">
            <Text fw={700} translate="no">
              {order.symbol}
            </Text>
            <DirectionBadge direction={order.direction} />
          </Group>
          <StatusBadge order={order} />
        </Group>
        <SimpleGrid cols={2} spacing={6}>
          <Field label={t('history.stake')}>
            <Num value={order.stake} size="sm" fw={600} suffix={` ${order.currency}`} />
          </Field>
          <Field label={t('history.duration')}>
            <Text size="sm" fw={600}>
              {words.duration(order.duration)} ·{' '}
              {t('form.profitRate', { rate: ratePercent(order.payout_rate) })}
            </Text>
          </Field>
          <Field label={t('history.openPrice')}>
            <RecordedPrice
              price={order.open_price}
              source={order.open_price_source}
              at={order.open_price_at}
              testId="history-open-price"
            />
          </Field>
          <Field label={t('history.settlementPrice')}>
            <RecordedPrice
              price={order.settlement_price}
              source={order.settlement_price_source}
              at={order.settlement_price_at}
              testId="history-settlement-price"
            />
          </Field>
          <Field label={t('history.payout')}>
            <Num value={order.payout} size="sm" fw={600} suffix={` ${order.currency}`} />
          </Field>
          <Field label={t('history.profit')}>
            <Num
              value={order.profit}
              signed
              trend={signOf(order.profit)}
              size="sm"
              fw={700}
              suffix={` ${order.currency}`}
              data-testid="history-profit"
              data-value={order.profit ?? ''}
            />
          </Field>
        </SimpleGrid>
        <Text size="xs" c="dimmed">
          {t('history.opened')}: {words.time(order.opened_at)}
          {order.settled_at !== null
            ? ` · ${t('history.settled')}: ${words.timeAfter(order.settled_at, order.opened_at)}`
            : ''}
        </Text>
      </Stack>
    </Paper>
  );
}

/** Options with their opening and settlement prices, payout and profit: a table, or cards on phones. */
export function HistoryTable({
  items,
  loading,
  compact,
}: {
  items: OptionOrderData[] | undefined;
  loading: boolean;
  compact: boolean;
}) {
  const { t } = useTranslation('options');
  const words = useOptionWords();
  if (loading && !items) return <Loader size="sm" />;
  if (!items || items.length === 0) {
    return (
      <Text c="dimmed" size="sm" ta="center" py="lg" data-testid="history-empty">
        {t('history.empty')}
      </Text>
    );
  }
  if (compact) {
    return (
      <Stack gap="sm" data-testid="option-history">
        {items.map((order) => (
          <HistoryCard key={order.order_id} order={order} />
        ))}
      </Stack>
    );
  }
  return (
    <Table.ScrollContainer minWidth={960}>
      <Table
        striped
        highlightOnHover
        verticalSpacing={6}
        horizontalSpacing="xs"
        fz="sm"
        style={{ whiteSpace: 'nowrap' }}
        data-testid="option-history"
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('history.opened')}</Table.Th>
            <Table.Th>{t('history.symbol')}</Table.Th>
            <Table.Th>{t('history.direction')}</Table.Th>
            <Table.Th ta="right">{t('history.stake')}</Table.Th>
            <Table.Th>{t('history.duration')}</Table.Th>
            <Table.Th>{t('history.openPrice')}</Table.Th>
            <Table.Th>{t('history.settlementPrice')}</Table.Th>
            <Table.Th>{t('history.result')}</Table.Th>
            <Table.Th ta="right">{t('history.payout')}</Table.Th>
            <Table.Th ta="right">{t('history.profit')}</Table.Th>
            <Table.Th>{t('history.settled')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((order) => (
            <Table.Tr
              key={order.order_id}
              data-testid="history-row"
              data-order={order.order_id}
              data-status={order.status}
            >
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{words.time(order.opened_at)}</Table.Td>
              <Table.Td translate="no" fw={600}>
                {order.symbol}
              </Table.Td>
              <Table.Td>
                <DirectionBadge direction={order.direction} />
              </Table.Td>
              <Table.Td ta="right">
                <Num value={order.stake} size="sm" suffix={` ${order.currency}`} />
              </Table.Td>
              <Table.Td>
                {words.duration(order.duration)}
                <Text span size="xs" c="dimmed">
                  {` · ${t('form.profitRate', { rate: ratePercent(order.payout_rate) })}`}
                </Text>
              </Table.Td>
              <Table.Td>
                <RecordedPrice
                  price={order.open_price}
                  source={order.open_price_source}
                  at={order.open_price_at}
                  testId="history-open-price"
                />
              </Table.Td>
              <Table.Td>
                <RecordedPrice
                  price={order.settlement_price}
                  source={order.settlement_price_source}
                  at={order.settlement_price_at}
                  testId="history-settlement-price"
                />
              </Table.Td>
              <Table.Td>
                <StatusBadge order={order} />
              </Table.Td>
              <Table.Td ta="right">
                <Num value={order.payout} size="sm" suffix={` ${order.currency}`} />
              </Table.Td>
              <Table.Td ta="right">
                <Num
                  value={order.profit}
                  signed
                  trend={signOf(order.profit)}
                  size="sm"
                  fw={700}
                  suffix={` ${order.currency}`}
                  data-testid="history-profit"
                  data-value={order.profit ?? ''}
                />
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                {order.settled_at !== null ? (
                  words.timeAfter(order.settled_at, order.opened_at)
                ) : (
                  <Text size="xs" c="dimmed">
                    {t('history.expires')}: {words.time(order.expires_at)}
                  </Text>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
