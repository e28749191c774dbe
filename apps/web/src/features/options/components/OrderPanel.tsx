import type { OptionDirection, OptionInstrumentData } from '@bourse/protocol';
import { Num } from '@bourse/ui';
import {
  Alert,
  Anchor,
  Button,
  Divider,
  Group,
  Modal,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { ApiError } from '../../../lib/api.ts';
import { rememberReturnTo } from '../../../lib/returnTo.ts';
import { newClientOid, useBuyOption } from '../api/buyOption.ts';
import { useOptionsBalance } from '../api/getOptionsBalance.ts';
import {
  payoutOnWin,
  ratePercent,
  STAKE_CURRENCY,
  STAKE_SCALE,
  shortestDuration,
  showStake,
  stakeBreaks,
  stakePresets,
  stakeTextError,
  stakeUnits,
} from '../logic.ts';
import { useOptionWords } from './labels.ts';

const TRANSFER_LINK = `/transfer?currency=${STAKE_CURRENCY}&from=spot&to=options`;

function Line({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
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
function DirectionPicker({
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

/**
 * The order panel: direction, stake (with the rules and presets), duration chips with their payout
 * rates, the payout a win would bring computed exactly, what a loss and a tie mean, the options
 * account's balance, a confirm step, and the server's refusal shown in place.
 */
export function OrderPanel({
  instrument,
  loggedIn,
}: {
  instrument: OptionInstrumentData;
  loggedIn: boolean;
}) {
  const { t } = useTranslation('options');
  const words = useOptionWords();
  const location = useLocation();
  const balance = useOptionsBalance();
  const buy = useBuyOption();
  const [direction, setDirection] = useState<OptionDirection>('up');
  const [stake, setStake] = useState('');
  const [duration, setDuration] = useState<number | null>(
    shortestDuration(instrument.durations)?.seconds ?? null,
  );
  const [confirming, setConfirming] = useState(false);
  const [refusal, setRefusal] = useState<ApiError | null>(null);
  const currency = instrument.currency;

  const chosen = instrument.durations.find((d) => d.seconds === duration) ?? null;
  const stakeValue = stakeUnits(stake);
  const textError = stake.trim() === '' ? null : stakeTextError(stake);
  const availableText = balance.data ?? null;
  const available = stakeUnits(availableText);
  const min = stakeUnits(instrument.min_stake) ?? 0n;
  const max = stakeUnits(instrument.max_stake) ?? 0n;
  const breaks =
    stakeValue === null || stakeValue === 0n ? [] : stakeBreaks({ stake: stakeValue, min, max, available });
  const payout = stakeValue !== null && chosen ? payoutOnWin(stakeValue, chosen.payout_rate) : null;
  const profit = payout !== null && stakeValue !== null ? payout - stakeValue : null;
  const tradable = instrument.enabled && instrument.open;
  const ready = tradable && chosen !== null && stakeValue !== null && stakeValue > 0n;
  const emptyBalance = loggedIn && balance.isSuccess && (available ?? 0n) === 0n;
  const presets = stakePresets(instrument.min_stake, instrument.max_stake);
  const maxStake = available !== null && available < max ? available : max;

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

  if (!loggedIn) {
    return (
      <Paper withBorder radius="md" p="md" data-testid="option-form" data-logged-out>
        <Stack gap="xs">
          <Text size="sm" c="dimmed" ta="center">
            {t('form.loginPrompt')}
          </Text>
          <Button
            component={Link}
            to="/login"
            onClick={() => rememberReturnTo(`${location.pathname}${location.search}`)}
            data-testid="option-login"
          >
            {t('form.loginButton')}
          </Button>
          <Button component={Link} to="/register" variant="default">
            {t('form.registerButton')}
          </Button>
        </Stack>
      </Paper>
    );
  }

  return (
    <Paper withBorder radius="md" p="md" data-testid="option-form" data-symbol={instrument.symbol}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Title order={2} fz="lg">
            {t('form.title')}
          </Title>
          <Text fw={600} translate="no">
            {instrument.symbol}
          </Text>
        </Group>
        {!instrument.enabled ? (
          <Alert color="orange" variant="light" p="xs" data-testid="option-disabled">
            {t('form.disabled', { symbol: instrument.symbol })}
          </Alert>
        ) : !instrument.open ? (
          <Alert color="gray" variant="light" p="xs" data-testid="option-closed">
            {t('form.closed', { symbol: instrument.symbol })}
          </Alert>
        ) : null}
        <Line label={t('form.available')}>
          <Group gap={6} wrap="nowrap">
            <Num
              value={availableText}
              size="sm"
              fw={600}
              suffix={` ${currency}`}
              data-testid="option-available"
              data-value={availableText ?? ''}
            />
            <Anchor component={Link} to={TRANSFER_LINK} size="sm" data-testid="option-transfer-link">
              {t('form.transfer')}
            </Anchor>
          </Group>
        </Line>
        {emptyBalance ? (
          <Alert color="blue" variant="light" p="xs" data-testid="option-empty-balance">
            <Stack gap={6}>
              <Text size="sm">{t('form.emptyBalance', { currency })}</Text>
              <Button
                component={Link}
                to={TRANSFER_LINK}
                size="xs"
                variant="light"
                data-testid="option-transfer"
              >
                {t('form.transferCta', { currency })}
              </Button>
            </Stack>
          </Alert>
        ) : null}
        <Text size="sm" fw={500}>
          {t('form.direction')}
        </Text>
        <DirectionPicker value={direction} onChange={setDirection} />
        <TextInput
          label={t('form.stake')}
          description={t('form.stakeRange', {
            min: instrument.min_stake,
            max: instrument.max_stake,
            currency,
          })}
          value={stake}
          inputMode="decimal"
          autoComplete="off"
          onChange={(e) => {
            setStake(e.currentTarget.value);
            setRefusal(null);
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
        <Group gap={6} grow>
          {presets.map((p) => (
            <Button
              key={p}
              size="compact-sm"
              variant={stake === p ? 'light' : 'default'}
              onClick={() => {
                setStake(p);
                setRefusal(null);
              }}
              data-testid={`stake-preset-${p}`}
            >
              {p}
            </Button>
          ))}
          <Button
            size="compact-sm"
            variant="default"
            disabled={maxStake <= 0n}
            onClick={() => setStake(showStake(maxStake))}
            data-testid="stake-max"
          >
            {t('form.max')}
          </Button>
        </Group>
        {breaks.length > 0 ? (
          <Stack gap={2} data-testid="option-hints">
            {breaks.map((rule) => (
              <Text key={rule} size="xs" c="orange.7" data-testid={`option-hint-${rule}`}>
                {rule === 'min'
                  ? t('form.hint.min', { min: instrument.min_stake, currency })
                  : rule === 'max'
                    ? t('form.hint.max', { max: instrument.max_stake, currency })
                    : t('form.hint.balance', { available: availableText ?? '0', currency })}
              </Text>
            ))}
          </Stack>
        ) : null}
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
              onClick={() => setDuration(d.seconds)}
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
        <Divider />
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
        <Button
          size="md"
          color={words.directionColor(direction)}
          disabled={!ready}
          onClick={() => {
            setRefusal(null);
            setConfirming(true);
          }}
          data-testid="option-buy"
        >
          {t('form.buy', {
            direction: words.direction(direction),
            duration: chosen ? words.duration(chosen.seconds) : '',
          })}
        </Button>
        {refusal ? (
          <Alert
            color="red"
            variant="light"
            p="xs"
            data-testid="option-refusal"
            data-reason={refusal.reason ?? ''}
          >
            <Text size="sm">{refusal.message}</Text>
          </Alert>
        ) : null}
        <Text size="xs" c="dimmed">
          {t('form.pricesNote')}
        </Text>
      </Stack>
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
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
            <Group grow mt="xs">
              <Button
                variant="default"
                onClick={() => setConfirming(false)}
                data-testid="option-confirm-back"
              >
                {t('confirm.back')}
              </Button>
              <Button
                color={words.directionColor(direction)}
                loading={buy.isPending}
                onClick={submit}
                data-testid="option-confirm-submit"
              >
                {t('confirm.submit')}
              </Button>
            </Group>
          </Stack>
        ) : null}
      </Modal>
    </Paper>
  );
}
