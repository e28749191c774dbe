import type { OptionInstrumentData } from '@bourse/protocol';
import { Num } from '@bourse/ui';
import { Alert, Anchor, Button, Divider, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { rememberReturnTo } from '../../../lib/returnTo.ts';
import { type OptionOrder, useOptionOrder } from '../hooks/useOptionOrder.ts';
import { STAKE_CURRENCY, stakePresets } from '../logic.ts';
import { useOptionWords } from './labels.ts';
import { OptionConfirm } from './OptionConfirm.tsx';
import { DirectionPicker, DurationPicker, Line, PayoutPreview, StakeField } from './OrderPanelFields.tsx';

const TRANSFER_LINK = `/transfer?currency=${STAKE_CURRENCY}&from=spot&to=options`;

type PanelProps = { instrument: OptionInstrumentData; order: OptionOrder };

/** Logged out: a prompt to log in (coming back here afterwards) or register. */
function LoggedOutPanel() {
  const { t } = useTranslation('options');
  const location = useLocation();
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

/** The title, whether the instrument trades now, and the options balance (with a transfer link). */
function PanelHead({ instrument, order }: PanelProps) {
  const { t } = useTranslation('options');
  const { currency } = instrument;
  const { availableText } = order;
  return (
    <>
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
      {order.emptyBalance ? (
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
    </>
  );
}

/** The buy button (it opens the confirm step), the server's refusal, and the note on prices. */
function BuyArea({ order }: { order: OptionOrder }) {
  const { t } = useTranslation('options');
  const words = useOptionWords();
  const { direction, chosen, refusal } = order;
  return (
    <>
      <Button
        size="md"
        color={words.directionColor(direction)}
        disabled={!order.ready}
        onClick={() => {
          order.setRefusal(null);
          order.setConfirming(true);
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
    </>
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
  const order = useOptionOrder({ instrument, loggedIn });
  if (!loggedIn) return <LoggedOutPanel />;
  const presets = stakePresets(instrument.min_stake, instrument.max_stake);
  return (
    <Paper withBorder radius="md" p="md" data-testid="option-form" data-symbol={instrument.symbol}>
      <Stack gap="sm">
        <PanelHead instrument={instrument} order={order} />
        <Text size="sm" fw={500}>
          {t('form.direction')}
        </Text>
        <DirectionPicker value={order.direction} onChange={order.setDirection} />
        <StakeField instrument={instrument} order={order} presets={presets} />
        <DurationPicker instrument={instrument} order={order} />
        <Divider />
        <PayoutPreview instrument={instrument} order={order} />
        <BuyArea order={order} />
      </Stack>
      <OptionConfirm instrument={instrument} order={order} />
    </Paper>
  );
}
