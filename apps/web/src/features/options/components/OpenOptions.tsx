import type { OptionOrderData } from '@bourse/protocol';
import { Num, trendColor, useNumSettings } from '@bourse/ui';
import { Badge, Button, Group, Loader, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useTicker } from '../../../lib/marketStore.ts';
import { useSettlingOption } from '../api/getOptionOrder.ts';
import {
  countdownText,
  payoutOnWin,
  secondsLeft,
  showStake,
  signOf,
  stakeUnits,
  standingAt,
} from '../logic.ts';
import { DirectionBadge } from './DirectionBadge.tsx';
import { useOptionWords } from './labels.ts';

function Cell({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      {children}
    </Stack>
  );
}

/** One open option: a large countdown, opening and live price, and whether it is winning now. */
function OpenOptionCard({ order, now }: { order: OptionOrderData; now: number }) {
  const { t } = useTranslation('options');
  const words = useOptionWords();
  const { rise } = useNumSettings();
  const ticker = useTicker(order.symbol);
  const left = secondsLeft(order.expires_at, now);
  const standing = standingAt({
    direction: order.direction,
    openPrice: order.open_price,
    price: ticker?.last,
  });
  const stake = stakeUnits(order.stake);
  const payout = stake === null ? null : showStake(payoutOnWin(stake, order.payout_rate));
  const standingColor =
    standing === 'winning'
      ? trendColor('up', rise)
      : standing === 'losing'
        ? trendColor('down', rise)
        : 'gray';
  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      data-testid="open-option"
      data-order={order.order_id}
      data-seconds-left={left}
      data-standing={standing ?? ''}
    >
      <Stack gap={8}>
        <Group justify="space-between" wrap="nowrap">
          <Group gap={8} wrap="nowrap">
            <Text fw={700} translate="no">
              {order.symbol}
            </Text>
            <DirectionBadge direction={order.direction} />
            <Text size="sm" c="dimmed">
              {words.duration(order.duration)}
            </Text>
          </Group>
          {standing ? (
            <Badge color={standingColor} variant="filled" data-testid="open-option-standing">
              {t(`open.standing.${standing}`)}
            </Badge>
          ) : null}
        </Group>
        <Group justify="space-between" align="flex-end" wrap="nowrap">
          <Stack gap={0}>
            <Text size="xs" c="dimmed">
              {t('open.timeLeft')}
            </Text>
            {left > 0 ? (
              <Text
                fz={34}
                fw={800}
                lh={1.1}
                style={{ fontVariantNumeric: 'tabular-nums' }}
                data-testid="open-option-countdown"
              >
                {countdownText(left)}
              </Text>
            ) : (
              <Group gap={8} data-testid="open-option-settling">
                <Loader size="sm" />
                <Text fw={700} fz="lg">
                  {t('open.settling')}
                </Text>
              </Group>
            )}
          </Stack>
          <Stack gap={0} align="flex-end">
            <Text size="xs" c="dimmed">
              {t('open.payoutIfWin')}
            </Text>
            <Num value={payout} fw={700} size="lg" suffix={` ${order.currency}`} />
          </Stack>
        </Group>
        <SimpleGrid cols={3} spacing="xs">
          <Cell label={t('open.stake')}>
            <Num value={order.stake} size="sm" fw={600} suffix={` ${order.currency}`} />
          </Cell>
          <Cell label={t('open.openPrice')}>
            <Num value={order.open_price} size="sm" fw={600} data-testid="open-option-open-price" />
          </Cell>
          <Cell label={t('open.livePrice')}>
            <Num
              value={ticker?.last}
              size="sm"
              fw={600}
              trend={standing === 'winning' ? 'up' : standing === 'losing' ? 'down' : 'none'}
              data-testid="open-option-live-price"
            />
          </Cell>
        </SimpleGrid>
        <Text size="xs" c="dimmed">
          {left > 0 ? `${t('open.expiresAt')}: ${words.time(order.expires_at)}` : t('open.settlingHint')}
        </Text>
      </Stack>
    </Paper>
  );
}

/** The customer's open options, each counting down to its expiry on the server's clock. */
export function OpenOptions({
  items,
  now,
  loggedIn,
  columns,
}: {
  items: OptionOrderData[] | undefined;
  now: number;
  loggedIn: boolean;
  columns: number;
}) {
  const { t } = useTranslation('options');
  if (!loggedIn) {
    return (
      <Text c="dimmed" size="sm" ta="center" py="lg">
        {t('open.loginPrompt')}
      </Text>
    );
  }
  if (!items) return <Loader size="sm" />;
  if (items.length === 0) {
    return (
      <Text c="dimmed" size="sm" ta="center" py="lg" data-testid="open-options-empty">
        {t('open.empty')}
      </Text>
    );
  }
  return (
    <SimpleGrid cols={columns} spacing="sm" data-testid="open-options">
      {items.map((order) => (
        <OpenOptionCard key={order.order_id} order={order} now={now} />
      ))}
    </SimpleGrid>
  );
}

/**
 * Asks for an expired option each second until the risk engine has settled it, then hands the
 * settled option up (renders nothing).
 */
export function SettlementWatcher({
  orderId,
  onSettled,
}: {
  orderId: string;
  onSettled: (order: OptionOrderData) => void;
}) {
  const query = useSettlingOption(orderId, true);
  const settled = query.data && query.data.status !== 'open' ? query.data : null;
  useEffect(() => {
    if (settled) onSettled(settled);
  }, [settled, onSettled]);
  return null;
}

/** A settled option, shown prominently: won, lost or tied, the prices with their source and time, payout and profit. */
export function ResultCard({ order, onDismiss }: { order: OptionOrderData; onDismiss: () => void }) {
  const { t } = useTranslation('options');
  const words = useOptionWords();
  const status = order.status === 'open' ? 'tied' : order.status;
  const color = words.statusColor(status);
  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      data-testid="option-result"
      data-order={order.order_id}
      data-status={order.status}
      style={{ borderColor: `var(--mantine-color-${color}-6)`, borderWidth: 2 }}
    >
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Stack gap={2}>
            <Text fz={24} fw={800} c={color} lh={1.2} data-testid="option-result-title">
              {status === 'won' ? '▲ ' : status === 'lost' ? '▼ ' : '= '}
              {t(`result.title.${status}`)}
            </Text>
            <Text size="sm" c="dimmed">
              {t('result.summary', {
                direction: words.direction(order.direction),
                symbol: order.symbol,
                stake: order.stake,
                currency: order.currency,
                duration: words.duration(order.duration),
              })}
            </Text>
          </Stack>
          <Button
            size="compact-sm"
            variant="subtle"
            color="gray"
            onClick={onDismiss}
            data-testid="option-result-dismiss"
          >
            {t('result.dismiss')}
          </Button>
        </Group>
        <SimpleGrid cols={2} spacing="xs">
          <Cell label={t('result.payout')}>
            <Num
              value={order.payout}
              fw={700}
              size="lg"
              suffix={` ${order.currency}`}
              data-testid="option-result-payout"
            />
          </Cell>
          <Cell label={t('result.profit')}>
            <Num
              value={order.profit}
              signed
              trend={signOf(order.profit)}
              fw={700}
              size="lg"
              suffix={` ${order.currency}`}
              data-testid="option-result-profit"
            />
          </Cell>
          <Cell label={t('result.openPrice')}>
            <Num value={order.open_price} fw={600} size="sm" />
            <Text size="xs" c="dimmed">
              {t('result.priceAt', {
                source: words.source(order.open_price_source),
                time: words.time(order.open_price_at),
              })}
            </Text>
          </Cell>
          <Cell label={t('result.settlementPrice')}>
            <Num value={order.settlement_price} fw={600} size="sm" data-testid="option-result-settlement" />
            <Text size="xs" c="dimmed">
              {t('result.priceAt', {
                source: words.source(order.settlement_price_source),
                time: words.time(order.settlement_price_at),
              })}
            </Text>
          </Cell>
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}
