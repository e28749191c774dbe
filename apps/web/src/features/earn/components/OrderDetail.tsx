import type { EarnOrderData } from '@bourse/protocol';
import { Sheet } from '@bourse/ui';
import {
  Button,
  Divider,
  Group,
  Loader,
  Progress,
  ScrollArea,
  SimpleGrid,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useProfitOrder } from '../api.ts';
import { canRedeem, profitSoFar, progressPercent } from '../logic.ts';
import { Fact, Money, OrderStateBadge, Rate, useEarnWords } from './parts.tsx';

/** What an early redemption gave back: principal, rewards paid and forfeited, penalty, when it arrives. */
function RedemptionFacts({ order }: { order: EarnOrderData }) {
  const { t } = useTranslation('earn');
  const words = useEarnWords();
  const r = order.redemption;
  if (!r) return null;
  const cur = order.currency;
  return (
    <Stack gap="xs" data-testid="detail-redemption">
      <Text size="sm" fw={600}>
        {t('detail.redemptionTitle')}
      </Text>
      <SimpleGrid cols={2} spacing="sm">
        <Fact label={t('detail.principalReturned')}>
          <Money value={r.principal_returned} currency={cur} testId="detail-principal-returned" />
        </Fact>
        <Fact label={t('detail.rewardsPaid')}>
          <Money value={r.rewards_paid} currency={cur} />
        </Fact>
        <Fact label={t('detail.rewardsForfeited')}>
          <Money value={r.rewards_forfeited} currency={cur} testId="detail-forfeited" />
        </Fact>
        <Fact label={t('detail.penalty')}>
          <Money value={r.penalty} currency={cur} testId="detail-penalty" />
        </Fact>
        <Fact label={t('detail.requested')}>{words.time(r.requested_at)}</Fact>
        <Fact label={t('detail.arrives')}>{words.time(r.arrives_at)}</Fact>
      </SimpleGrid>
    </Stack>
  );
}

/** The order's days, one row per posted reward. */
function AccrualTable({ orderId, currency }: { orderId: string; currency: string }) {
  const { t } = useTranslation('earn');
  const words = useEarnWords();
  const detail = useProfitOrder(orderId);
  if (detail.isPending) return <Loader size="sm" />;
  const accruals = detail.data?.accruals ?? [];
  if (accruals.length === 0) {
    return (
      <Text size="sm" c="dimmed" data-testid="detail-no-accruals">
        {t('detail.noAccruals')}
      </Text>
    );
  }
  return (
    <ScrollArea.Autosize mah={260}>
      <Table fz="sm" verticalSpacing={4} striped data-testid="detail-accruals">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('detail.day')}</Table.Th>
            <Table.Th ta="right">{t('detail.reward')}</Table.Th>
            <Table.Th>{t('detail.posted')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {accruals.map((a) => (
            <Table.Tr key={a.day} data-testid="accrual-row" data-day={a.day} data-amount={a.amount}>
              <Table.Td>{a.day}</Table.Td>
              <Table.Td ta="right">
                <Money value={a.amount} currency={currency} fw={500} />
              </Table.Td>
              <Table.Td>{words.time(a.posted_at)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea.Autosize>
  );
}

/** One order: its figures, progress, day-by-day rewards, redemption, and "redeem early" at the bottom. */
export function OrderDetail({
  order,
  onClose,
  onRedeem,
}: {
  order: EarnOrderData | null;
  onClose: () => void;
  onRedeem: (order: EarnOrderData) => void;
}) {
  const { t } = useTranslation('earn');
  const words = useEarnWords();
  return (
    <Sheet
      opened={order !== null}
      onClose={onClose}
      title={t('detail.title')}
      closeLabel={t('detail.close')}
      data-testid="order-detail"
    >
      {order ? (
        <Stack gap="sm" data-order={order.order_id}>
          <Group justify="space-between" wrap="nowrap">
            <Stack gap={0}>
              <Text fw={700}>{order.product_name}</Text>
              <Text size="xs" c="dimmed" translate="no">
                {t('detail.orderId')} {order.order_id}
              </Text>
            </Stack>
            <OrderStateBadge state={order.state} />
          </Group>
          <SimpleGrid cols={2} spacing="sm">
            <Fact label={t('orders.amount')}>
              <Money value={order.amount} currency={order.currency} testId="detail-amount" />
            </Fact>
            <Fact label={t('orders.accrued')}>
              <Money value={profitSoFar(order)} currency={order.currency} testId="detail-accrued" />
            </Fact>
            <Fact label={t('detail.dailyReward')}>
              <Money value={order.daily_reward} currency={order.currency} />
            </Fact>
            <Fact label={t('detail.totalReward')}>
              <Money value={order.total_reward} currency={order.currency} />
            </Fact>
            <Fact label={t('product.annualRate')}>
              <Rate value={order.annual_rate} /> · <Rate value={order.daily_rate} />
            </Fact>
            <Fact label={t('detail.matures')}>{words.time(order.matures_at)}</Fact>
            {order.completed_at !== null ? (
              <Fact label={t('detail.completedAt')}>{words.time(order.completed_at)}</Fact>
            ) : null}
          </SimpleGrid>
          <Stack gap={4}>
            <Text size="xs" c="dimmed">
              {t('detail.progress')}:{' '}
              {t('detail.progressValue', { done: order.days_accrued, total: order.term_days })}
            </Text>
            <Progress value={progressPercent(order.days_accrued, order.term_days)} size="sm" />
          </Stack>
          <Text size="xs" c="dimmed">
            {t('detail.redeemRule')}: {words.ruleName(order.redeem_rule, order.penalty_rate)}
          </Text>
          <RedemptionFacts order={order} />
          <Divider />
          <Text size="sm" fw={600}>
            {t('detail.accrualsTitle')}
          </Text>
          <AccrualTable orderId={order.order_id} currency={order.currency} />
          {canRedeem(order.state, order.redeem_rule) ? (
            <Button color="orange" fullWidth onClick={() => onRedeem(order)} data-testid="detail-redeem">
              {t('orders.redeem')}
            </Button>
          ) : null}
        </Stack>
      ) : null}
    </Sheet>
  );
}
