import { DERIVATIVES_LIMITS, type OptionDirection, type OptionInstrumentData } from '@bourse/protocol';
import { Num } from '@bourse/ui';
import { Button, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { OptionOrder } from '../hooks/useOptionOrder.ts';
import { ratePercent, STAKE_SCALE, showStake } from '../logic.ts';
import { useOptionWords } from './labels.ts';

type PanelProps = { instrument: OptionInstrumentData; order: OptionOrder };

/** A label on the left, its value on the right. */
export function Line({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Group justify="space-between" gap={4} wrap="nowrap" data-testid={testId}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      {children}
    </Group>
  );
}

/** The two big direction buttons, in the customer's up and down colours. */
export function DirectionPicker({
  value,
  onChange,
}: {
  value: OptionDirection;
  onChange: (d: OptionDirection) => void;
}) {
  const { t } = useTranslation('options');
  const words = useOptionWords();
  const button = (d: OptionDirection) => (
    <Button
      key={d}
      size="lg"
      h={68}
      color={words.directionColor(d)}
      variant={value === d ? 'filled' : 'light'}
      onClick={() => onChange(d)}
      aria-pressed={value === d}
      data-testid={`direction-${d}`}
      data-selected={value === d || undefined}
    >
      <Text component="span" fw={700} fz={20} lh={1.1}>
        {d === 'up' ? '▲ ' : '▼ '}
        {words.direction(d)}
      </Text>
    </Button>
  );
  return (
    <Stack gap={4}>
      <SimpleGrid cols={2} spacing="sm">
        {button('up')}
        {button('down')}
      </SimpleGrid>
      <Text size="xs" c="dimmed" data-testid="direction-hint">
        {value === 'up' ? t('form.upHint') : t('form.downHint')}
      </Text>
    </Stack>
  );
}

/** The stake input, with its range and the error its text makes. */
function StakeInput({ instrument, order }: PanelProps) {
  const { t } = useTranslation('options');
  const currency = instrument.currency;
  const { textError } = order;
  return (
    <TextInput
      label={t('form.stake')}
      description={`${t('form.stakeRange', {
        min: instrument.min_stake,
        max: instrument.max_stake,
        currency,
      })} · ${t('form.openMax', { max: DERIVATIVES_LIMITS.openOptionsMax })}`}
      value={order.stake}
      inputMode="decimal"
      autoComplete="off"
      onChange={(e) => {
        order.setStake(e.currentTarget.value);
        order.setRefusal(null);
      }}
      rightSection={
        <Text size="xs" c="dimmed">
          {currency}
        </Text>
      }
      rightSectionWidth={56}
      error={
        textError === 'precision'
          ? t('form.precision', { decimals: STAKE_SCALE })
          : textError
            ? t('form.invalidNumber')
            : undefined
      }
      data-testid="option-stake"
    />
  );
}

/** The preset stakes and "max" (the instrument's maximum, or the balance when lower). */
function StakePresets({ presets, order }: { presets: string[]; order: OptionOrder }) {
  const { t } = useTranslation('options');
  return (
    <Group gap={6} grow>
      {presets.map((p) => (
        <Button
          key={p}
          size="compact-sm"
          variant={order.stake === p ? 'light' : 'default'}
          onClick={() => {
            order.setStake(p);
            order.setRefusal(null);
          }}
          data-testid={`stake-preset-${p}`}
        >
          {p}
        </Button>
      ))}
      <Button
        size="compact-sm"
        variant="default"
        disabled={order.maxStake <= 0n}
        onClick={() => order.setStake(showStake(order.maxStake))}
        data-testid="stake-max"
      >
        {t('form.max')}
      </Button>
    </Group>
  );
}

/** The stake: input, presets, and the rules it breaks (minimum, maximum, balance). */
export function StakeField({ instrument, order, presets }: PanelProps & { presets: string[] }) {
  const { t } = useTranslation('options');
  const currency = instrument.currency;
  const { breaks } = order;
  return (
    <>
      <StakeInput instrument={instrument} order={order} />
      <StakePresets presets={presets} order={order} />
      {breaks.length > 0 ? (
        <Stack gap={2} data-testid="option-hints">
          {breaks.map((rule) => (
            <Text key={rule} size="xs" c="orange.7" data-testid={`option-hint-${rule}`}>
              {rule === 'min'
                ? t('form.hint.min', { min: instrument.min_stake, currency })
                : rule === 'max'
                  ? t('form.hint.max', { max: instrument.max_stake, currency })
                  : t('form.hint.balance', { available: order.availableText ?? '0', currency })}
            </Text>
          ))}
        </Stack>
      ) : null}
    </>
  );
}

/** The duration chips, each with its payout rate. */
export function DurationPicker({ instrument, order }: PanelProps) {
  const { t } = useTranslation('options');
  const words = useOptionWords();
  const { duration } = order;
  return (
    <>
      <Text size="sm" fw={500}>
        {t('form.duration')}
      </Text>
      <SimpleGrid cols={{ base: 3, sm: Math.min(4, instrument.durations.length) }} spacing={8}>
        {instrument.durations.map((d) => (
          <Button
            key={d.seconds}
            h="auto"
            py={6}
            variant={duration === d.seconds ? 'filled' : 'default'}
            onClick={() => order.setDuration(d.seconds)}
            aria-pressed={duration === d.seconds}
            data-testid={`duration-${d.seconds}`}
            data-selected={duration === d.seconds || undefined}
            styles={{ label: { flexDirection: 'column', whiteSpace: 'normal' } }}
          >
            <Text component="span" fw={700} size="sm">
              {words.duration(d.seconds)}
            </Text>
            <Text component="span" size="xs" opacity={0.85}>
              {t('form.profitRate', { rate: ratePercent(d.payout_rate) })}
            </Text>
          </Button>
        ))}
      </SimpleGrid>
    </>
  );
}

/** What a win pays and earns, and what a loss and a tie mean. */
export function PayoutPreview({ instrument, order }: PanelProps) {
  const { t } = useTranslation('options');
  const currency = instrument.currency;
  const { payout, profit, stakeValue } = order;
  return (
    <Stack gap={4} data-testid="option-preview">
      <Line label={t('form.winPayout')}>
        <Num
          value={payout === null ? null : showStake(payout)}
          size="lg"
          fw={700}
          suffix={` ${currency}`}
          data-testid="option-payout"
        />
      </Line>
      <Line label={t('form.winProfit')}>
        <Num
          value={profit === null ? null : showStake(profit)}
          signed
          trend="up"
          size="sm"
          fw={600}
          suffix={` ${currency}`}
          data-testid="option-profit"
        />
      </Line>
      <Text size="xs" c="dimmed" data-testid="option-outcomes">
        {t('form.outcomes', { stake: stakeValue === null ? '--' : showStake(stakeValue), currency })}
      </Text>
    </Stack>
  );
}
