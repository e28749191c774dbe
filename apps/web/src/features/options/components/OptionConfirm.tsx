import type { OptionInstrumentData } from '@bourse/protocol';
import { Num } from '@bourse/ui';
import { Button, Divider, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { OptionOrder } from '../hooks/useOptionOrder.ts';
import { ratePercent, showStake } from '../logic.ts';
import { useOptionWords } from './labels.ts';
import { Line } from './OrderPanelFields.tsx';

/** Back to the panel, or buy. */
function ConfirmButtons({ order }: { order: OptionOrder }) {
  const { t } = useTranslation('options');
  const words = useOptionWords();
  return (
    <Group grow mt="xs">
      <Button variant="default" onClick={() => order.setConfirming(false)} data-testid="option-confirm-back">
        {t('confirm.back')}
      </Button>
      <Button
        color={words.directionColor(order.direction)}
        loading={order.pending}
        onClick={order.submit}
        data-testid="option-confirm-submit"
      >
        {t('confirm.submit')}
      </Button>
    </Group>
  );
}

/** The confirm step: the order, what a win, a loss and a tie bring, then back or buy. */
export function OptionConfirm({
  instrument,
  order,
}: {
  instrument: OptionInstrumentData;
  order: OptionOrder;
}) {
  const { t } = useTranslation('options');
  const words = useOptionWords();
  const currency = instrument.currency;
  const { chosen, stakeValue, payout, profit, direction } = order;
  return (
    <Modal
      opened={order.confirming}
      onClose={() => order.setConfirming(false)}
      title={t('confirm.title')}
      centered
      data-testid="option-confirm"
    >
      {chosen && stakeValue !== null && payout !== null && profit !== null ? (
        <Stack gap="xs" data-testid="option-confirm-body">
          <Line label={t('confirm.instrument')}>
            <Text fw={600} translate="no">
              {instrument.symbol}
            </Text>
          </Line>
          <Line label={t('confirm.direction')}>
            <Text fw={700} c={words.directionColor(direction)}>
              {direction === 'up' ? '▲ ' : '▼ '}
              {words.direction(direction)}
            </Text>
          </Line>
          <Line label={t('confirm.stake')}>
            <Num value={showStake(stakeValue)} fw={600} suffix={` ${currency}`} />
          </Line>
          <Line label={t('confirm.duration')}>
            <Text fw={600}>{words.duration(chosen.seconds)}</Text>
          </Line>
          <Line label={t('confirm.rate')}>
            <Text fw={600}>{`${ratePercent(chosen.payout_rate)}%`}</Text>
          </Line>
          <Divider />
          <Line label={t('confirm.payout')}>
            <Num value={showStake(payout)} fw={700} suffix={` ${currency}`} data-testid="confirm-payout" />
          </Line>
          <Line label={t('confirm.profit')}>
            <Num value={showStake(profit)} signed trend="up" fw={600} suffix={` ${currency}`} />
          </Line>
          <Line label={t('confirm.lose')}>
            <Text size="sm" fw={600}>
              {t('confirm.loseValue', { stake: showStake(stakeValue), currency })}
            </Text>
          </Line>
          <Line label={t('confirm.tie')}>
            <Text size="sm" fw={600}>
              {t('confirm.tieValue')}
            </Text>
          </Line>
          <Text size="xs" c="dimmed">
            {t('confirm.timing')}
          </Text>
          <ConfirmButtons order={order} />
        </Stack>
      ) : null}
    </Modal>
  );
}
