import type { C2cOrderData } from '@bourse/protocol';
import { Alert, Anchor, Grid, Group, Paper, SimpleGrid, Stack, Text, Timeline } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useNow } from '../../../lib/serverClock.ts';
import { useToken } from '../../../lib/session.ts';
import { useC2cOrder, useOrderFileLink } from '../api.ts';
import { C2C_ROUTES, counterpartyOf, deadlineOf, isLive } from '../logic.ts';
import { DisputeForm, PayerForm, PayToCard, ReceiverPanel } from './OrderActions.tsx';
import { OrderChat } from './OrderChat.tsx';
import {
  Amount,
  C2cPage,
  Countdown,
  ErrorNote,
  Fact,
  Loading,
  LoginPrompt,
  SafetyNote,
  StateBadge,
  useC2cWords,
} from './parts.tsx';

/** The deadline running now, said from my side of the order. */
function DeadlineLine({ order }: { order: C2cOrderData }) {
  const { t } = useTranslation('c2c');
  const deadline = deadlineOf(order);
  const now = useNow(deadline !== null);
  if (!deadline) return null;
  const label =
    deadline.kind === 'pay_by'
      ? order.i_pay
        ? t('order.payBy')
        : t('order.payByReceiver')
      : deadline.kind === 'confirm_by'
        ? order.i_pay
          ? t('order.confirmByPayer')
          : t('order.confirmBy')
        : t('order.respondBy');
  return (
    <Stack gap={2}>
      <Group gap="xs" wrap="wrap" data-testid="order-deadline" data-kind={deadline.kind}>
        <Text size="sm">{label}</Text>
        <Countdown at={deadline.at} testId="order-countdown" />
      </Group>
      {now >= deadline.at ? (
        <Text size="xs" c="dimmed" data-testid="order-deadline-passed">
          {t('order.deadlinePassed')}
        </Text>
      ) : null}
    </Stack>
  );
}

/** Where the coins are: held in escrow while the order lives, then released or returned. */
function EscrowLine({ order }: { order: C2cOrderData }) {
  const { t } = useTranslation('c2c');
  const words = useC2cWords();
  if (order.state === 'matched' || order.state === 'paid' || order.state === 'disputed')
    return (
      <Alert color="blue" variant="light" p="sm" data-testid="order-escrow" data-held="true">
        <Text size="sm">{t('order.escrow', { amount: words.exact(order.amount), coin: order.coin })}</Text>
      </Alert>
    );
  if (order.state === 'completed')
    return (
      <Text size="sm" c="dimmed" data-testid="order-escrow" data-held="false">
        {t('order.escrowReleased')}
      </Text>
    );
  if (order.state === 'pending_match') return null;
  return (
    <Text size="sm" c="dimmed" data-testid="order-escrow" data-held="false">
      {t('order.escrowReturned')}
    </Text>
  );
}

function Summary({ order }: { order: C2cOrderData }) {
  const { t } = useTranslation('c2c');
  const words = useC2cWords();
  return (
    <Paper withBorder radius="lg" p="md" data-testid="order-summary">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Text fw={700} c={order.side === 'buy' ? 'teal' : 'red'}>
            {words.side(order.side)} {order.coin}
          </Text>
          <StateBadge state={order.state} />
        </Group>
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
          <Fact label={t('order.number')} testId="order-number">
            <Text ff="monospace" size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
              {order.order_id}
            </Text>
          </Fact>
          <Fact label={t('order.amount')}>
            <Amount value={order.amount} currency={order.coin} testId="order-amount" />
          </Fact>
          <Fact label={t('order.total')}>
            <Amount value={order.fiat_amount} currency={order.fiat} fiat testId="order-total" />
          </Fact>
          <Fact label={t('order.price')}>
            <Amount value={order.price} currency={order.fiat} testId="order-price" />
          </Fact>
          <Fact label={t('order.fee')}>
            <span data-testid="order-fee" data-value={order.fee}>
              {t('order.feeZero')}
            </span>
          </Fact>
          <Fact label={t('order.method')}>{words.method(order.method)}</Fact>
          <Fact label={t('order.counterparty')}>{counterpartyOf(order) ?? t('orders.merchantSide')}</Fact>
          <Fact label={t('order.created')}>{words.time(order.created_at)}</Fact>
        </SimpleGrid>
        <DeadlineLine order={order} />
        <EscrowLine order={order} />
      </Stack>
    </Paper>
  );
}

/** What happened after paying: the payer's details, a dispute, the outcome, how it ended. */
/** The remittance proof the payer attached, for either side: the receiver checks it against the bank account. */
function ProofLink({ order }: { order: C2cOrderData }) {
  const { t } = useTranslation('c2c');
  const link = useOrderFileLink(order.order_id, order.proof_id);
  if (!link.data?.url) return null;
  return (
    <Anchor href={link.data.url} target="_blank" rel="noreferrer" size="sm" data-testid="order-proof">
      {t('order.proofLink')}
    </Anchor>
  );
}

function Facts({ order }: { order: C2cOrderData }) {
  const { t } = useTranslation('c2c');
  const partyOf = (by: string) => t(`party.${by}` as never);
  return (
    <Stack gap="xs">
      {order.payer_name && order.payer_bank ? (
        <Text size="sm" data-testid="order-paid-info">
          {t('order.paidInfo', { name: order.payer_name, bank: order.payer_bank })}
        </Text>
      ) : null}
      {order.proof_id ? <ProofLink order={order} /> : null}
      {order.dispute ? (
        <Alert color="orange" variant="light" p="sm" data-testid="order-dispute-info">
          <Text size="sm">
            {t('order.disputeInfo', {
              by: partyOf(order.dispute.by),
              reason: t(`disputeReason.${order.dispute.reason}`),
            })}
          </Text>
          {order.dispute.note ? (
            <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap' }}>
              {order.dispute.note}
            </Text>
          ) : null}
        </Alert>
      ) : null}
      {order.outcome ? (
        <Alert
          color="gray"
          variant="light"
          p="sm"
          data-testid="order-outcome"
          data-outcome={order.outcome.outcome}
        >
          <Text size="sm" fw={600}>
            {t('order.outcome')}
          </Text>
          <Text size="sm">
            {t('order.outcomeText', {
              outcome: t(`outcome.${order.outcome.outcome}`),
              by: partyOf(order.outcome.by),
              reason: order.outcome.reason,
            })}
          </Text>
        </Alert>
      ) : null}
      {order.end_reason ? (
        <Text size="sm" c="dimmed" data-testid="order-end-reason" data-reason={order.end_reason}>
          {t('order.endReason')}:{' '}
          {t(`endReason.${order.end_reason}` as never, { defaultValue: order.end_reason })}
        </Text>
      ) : null}
    </Stack>
  );
}

function OrderTimeline({ order }: { order: C2cOrderData }) {
  const { t } = useTranslation('c2c');
  const words = useC2cWords();
  return (
    <Paper withBorder radius="lg" p="md" data-testid="order-timeline">
      <Stack gap="sm">
        <Text fw={700}>{t('order.timeline')}</Text>
        <Timeline active={order.timeline.length - 1} bulletSize={16} lineWidth={2}>
          {order.timeline.map((e) => (
            <Timeline.Item
              key={e.seq}
              title={t(`event.${e.event}` as never, { defaultValue: words.state(e.to) })}
              data-testid="order-event"
              data-event={e.event}
            >
              <Text size="xs" c="dimmed">
                {words.time(e.at)} · {t(`party.${e.actor}`)}
              </Text>
            </Timeline.Item>
          ))}
        </Timeline>
      </Stack>
    </Paper>
  );
}

/** What I can do now, by my part (payer or receiver) and the state. */
function Actions({ order }: { order: C2cOrderData }) {
  const { t } = useTranslation('c2c');
  if (order.state === 'matched')
    return order.i_pay ? (
      <PayerForm order={order} />
    ) : (
      <Text size="sm" c="dimmed" data-testid="order-waiting">
        {t('order.waitingPayment')}
      </Text>
    );
  if (order.state === 'paid')
    return (
      <Stack gap="sm">
        {order.i_pay ? (
          <Text size="sm" c="dimmed" data-testid="order-waiting">
            {t('order.waitingRelease')}
          </Text>
        ) : (
          <ReceiverPanel order={order} />
        )}
        <DisputeForm order={order} />
      </Stack>
    );
  return null;
}

/** Customer service in the app, with the conversation linked to this order (never an outside chat). */
function SupportLink({ order }: { order: C2cOrderData }) {
  const { t } = useTranslation('c2c');
  return (
    <Anchor
      component={Link}
      to={`/service?ref_type=c2c_order&ref_id=${encodeURIComponent(order.order_id)}`}
      size="sm"
      data-testid="order-support"
    >
      {t('order.support')}
    </Anchor>
  );
}

function OrderView({ order }: { order: C2cOrderData }) {
  return (
    <Grid gap="md">
      <Grid.Col span={{ base: 12, md: 7 }}>
        <Stack gap="md">
          <Summary order={order} />
          <SafetyNote />
          <PayToCard order={order} />
          <Actions order={order} />
          <Facts order={order} />
          <SupportLink order={order} />
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 5 }}>
        <Stack gap="md">
          <OrderChat order={order} open={isLive(order.state)} />
          <OrderTimeline order={order} />
        </Stack>
      </Grid.Col>
    </Grid>
  );
}

/** `/c2c_submit?order_id=`: the order, where to pay, paying or confirming, disputes, the chat. */
export function OrderPage() {
  const { t } = useTranslation('c2c');
  const token = useToken();
  const [params] = useSearchParams();
  const orderId = params.get('order_id');
  const order = useC2cOrder(orderId);
  return (
    <C2cPage title={t('order.title', { id: orderId ?? '' })} section={null} testId="c2c-order">
      <Anchor component={Link} to={C2C_ROUTES.orders} size="sm" data-testid="order-back">
        {t('order.myOrders')}
      </Anchor>
      {token === null ? (
        <LoginPrompt />
      ) : !orderId ? (
        <Text c="dimmed" data-testid="order-missing">
          {t('common.notFound')}
        </Text>
      ) : order.isPending ? (
        <Loading />
      ) : order.isError ? (
        <ErrorNote error={order.error} retry={() => void order.refetch()} />
      ) : (
        <OrderView order={order.data} />
      )}
    </C2cPage>
  );
}
