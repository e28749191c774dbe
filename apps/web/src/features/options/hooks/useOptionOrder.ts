import type { OptionDirection, OptionInstrumentData } from '@bourse/protocol';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api.ts';
import { newClientOid, useBuyOption } from '../api/buyOption.ts';
import { useOptionsBalance } from '../api/getOptionsBalance.ts';
import { useOptionWords } from '../components/labels.ts';
import { shortestDuration, showStake, stakeFigures } from '../logic.ts';

/**
 * The options order panel's state: direction, stake, duration, the confirm step, the figures the stake
 * gives (`stakeFigures`), the options balance, and `submit` (the server's refusal lands in `refusal`).
 */
export function useOptionOrder({
  instrument,
  loggedIn,
}: {
  instrument: OptionInstrumentData;
  loggedIn: boolean;
}) {
  const { t } = useTranslation('options');
  const words = useOptionWords();
  const balance = useOptionsBalance();
  const buy = useBuyOption();
  const [direction, setDirection] = useState<OptionDirection>('up');
  const [stake, setStake] = useState('');
  const [duration, setDuration] = useState<number | null>(
    shortestDuration(instrument.durations)?.seconds ?? null,
  );
  const [confirming, setConfirming] = useState(false);
  const [refusal, setRefusal] = useState<ApiError | null>(null);
  const chosen = instrument.durations.find((d) => d.seconds === duration) ?? null;
  const availableText = balance.data ?? null;
  const figures = stakeFigures({ stake, availableText, instrument, chosen });
  const emptyBalance = loggedIn && balance.isSuccess && (figures.available ?? 0n) === 0n;
  const { ready, stakeValue } = figures;

  const submit = () => {
    if (!ready || !chosen || stakeValue === null) return;
    setRefusal(null);
    buy.mutate(
      {
        symbol: instrument.symbol,
        direction,
        stake: showStake(stakeValue),
        duration: chosen.seconds,
        client_oid: newClientOid(),
      },
      {
        onSuccess: (order) => {
          setConfirming(false);
          notifications.show({
            color: 'teal',
            message: t('form.bought', {
              direction: words.direction(order.direction),
              symbol: order.symbol,
              stake: order.stake,
              currency: order.currency,
              duration: words.duration(order.duration),
            }),
          });
        },
        onError: (error) => {
          setConfirming(false);
          if (error instanceof ApiError && error.kind === 'refused') setRefusal(error);
        },
      },
    );
  };

  return {
    ...figures,
    direction,
    setDirection,
    stake,
    setStake,
    duration,
    setDuration,
    chosen,
    availableText,
    emptyBalance,
    confirming,
    setConfirming,
    refusal,
    setRefusal,
    submit,
    pending: buy.isPending,
  };
}

export type OptionOrder = ReturnType<typeof useOptionOrder>;
