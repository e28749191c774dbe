import { scaleOfStep } from '@bourse/money';
import type { ContractInstrumentData, ContractSide } from '@bourse/protocol';
import { Num } from '@bourse/ui';
import { Alert, Anchor, Button, SegmentedControl, Stack, Tabs, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { rememberReturnTo } from '../../../lib/returnTo.ts';
import { HoursText } from '../../../shared/instrument/InstrumentPanel.tsx';
import { type ContractOrder, type ContractOrderType, useContractOrder } from '../hooks/useContractOrder.ts';
import { LeverageField, LotsField, PriceField, TpSlFields } from './OrderFormFields.tsx';
import { OrderPreview, Row } from './OrderPreview.tsx';

type OrderProps = { instrument: ContractInstrumentData; order: ContractOrder };

/** Logged out: a prompt to log in (coming back here afterwards) or register. */
function LoggedOutForm() {
  const { t } = useTranslation('contract');
  const location = useLocation();
  return (
    <Stack gap="xs" align="stretch" py="md" data-testid="contract-form" data-logged-out>
      <Text size="sm" c="dimmed" ta="center">
        {t('form.loginPrompt')}
      </Text>
      <Button
        component={Link}
        to="/login"
        onClick={() => rememberReturnTo(`${location.pathname}${location.search}`)}
        data-testid="form-login"
      >
        {t('form.loginButton')}
      </Button>
      <Button component={Link} to="/register" variant="default">
        {t('form.registerButton')}
      </Button>
    </Stack>
  );
}

/** Buy or sell (when the form may switch sides), then market or limit. */
function SideAndType({ order, sideSwitch }: { order: ContractOrder; sideSwitch: boolean }) {
  const { t } = useTranslation('contract');
  const { fields } = order;
  return (
    <>
      {sideSwitch ? (
        <SegmentedControl
          fullWidth
          value={fields.side}
          onChange={(v) => fields.setSide(v as ContractSide)}
          data={[
            { value: 'buy', label: t('form.buy') },
            { value: 'sell', label: t('form.sell') },
          ]}
          color={fields.side === 'buy' ? 'teal' : 'red'}
          data-testid="form-side"
        />
      ) : null}
      <Tabs value={fields.type} onChange={(v) => v && fields.setType(v as ContractOrderType)} variant="pills">
        <Tabs.List>
          <Tabs.Tab value="market" data-testid="form-type-market">
            {t('form.market')}
          </Tabs.Tab>
          <Tabs.Tab value="limit" data-testid="form-type-limit">
            {t('form.limit')}
          </Tabs.Tab>
        </Tabs.List>
      </Tabs>
    </>
  );
}

/** The market's state (closed, disabled), the contract USDT available, and a transfer link when none. */
function MarketAndFunds({ instrument, order }: OrderProps) {
  const { t } = useTranslation('contract');
  const { contractUsdt, noFunds } = order;
  return (
    <>
      {!instrument.open ? (
        <Alert color="gray" variant="light" p="xs" data-testid="form-market-closed">
          <Text size="xs">{t('form.closedMarket')}</Text>
          <HoursText hours={instrument.trading_hours} />
        </Alert>
      ) : null}
      {!instrument.enabled ? (
        <Alert color="orange" variant="light" p="xs" data-testid="form-disabled">
          <Text size="xs">{t('form.disabled')}</Text>
        </Alert>
      ) : null}
      <Row label={t('form.available')}>
        <Num
          value={contractUsdt ?? null}
          kind="fiat"
          size="xs"
          fw={600}
          suffix=" USDT"
          data-testid="form-available"
          data-value={contractUsdt ?? ''}
        />
      </Row>
      {noFunds ? (
        <Alert color="blue" variant="light" p="xs" data-testid="form-no-funds">
          <Text size="xs">{t('form.noFunds')}</Text>
          <Anchor
            component={Link}
            to="/transfer?currency=USDT&from=spot"
            size="xs"
            fw={600}
            data-testid="form-transfer"
          >
            {t('form.transfer')}
          </Anchor>
        </Alert>
      ) : null}
    </>
  );
}

/** The send button, the server's refusal under it, and the demo note. */
function SubmitArea({ instrument, order, demo }: OrderProps & { demo: boolean }) {
  const { t } = useTranslation('contract');
  const { fields, refusal } = order;
  return (
    <>
      <Button
        color={fields.side === 'buy' ? 'teal' : 'red'}
        onClick={order.submit}
        loading={order.pending}
        disabled={!order.ready}
        data-testid="form-submit"
      >
        {fields.side === 'buy'
          ? t('form.submitBuy', { symbol: instrument.symbol })
          : t('form.submitSell', { symbol: instrument.symbol })}
      </Button>
      {refusal ? (
        <Alert
          color="red"
          variant="light"
          p="xs"
          data-testid="form-refusal"
          data-reason={refusal.reason ?? ''}
        >
          <Text size="xs">{refusal.message}</Text>
        </Alert>
      ) : null}
      {demo ? (
        <Text size="xs" c="dimmed" data-testid="form-demo-note">
          {t('form.demoNote')}
        </Text>
      ) : null}
    </>
  );
}

/**
 * The contract order form: side, market or limit, lots (with "1 lot = …"), leverage, optional TP/SL,
 * and the server's preview (`getContractQuote`) of price, value, margin, fees and liquidation price.
 * Rules an input breaks are named while typing; the server checks them all again and its refusal
 * (already in the customer's language) is shown under the button.
 */
export function OrderForm({
  instrument,
  loggedIn,
  demo,
  initialSide = 'buy',
  sideSwitch = true,
  onDone,
}: {
  instrument: ContractInstrumentData;
  loggedIn: boolean;
  demo: boolean;
  initialSide?: ContractSide;
  sideSwitch?: boolean;
  onDone?: () => void;
}) {
  const order = useContractOrder({ instrument, loggedIn, initialSide, onDone });
  if (!loggedIn) return <LoggedOutForm />;
  const { side, type } = order.fields;
  return (
    <Stack gap={8} data-testid="contract-form" data-side={side} data-type={type}>
      <SideAndType order={order} sideSwitch={sideSwitch} />
      <MarketAndFunds instrument={instrument} order={order} />
      <PriceField instrument={instrument} order={order} />
      <LotsField instrument={instrument} order={order} />
      <LeverageField instrument={instrument} order={order} />
      <TpSlFields order={order} />
      <OrderPreview priceScale={scaleOfStep(instrument.price_tick)} order={order} />
      <SubmitArea instrument={instrument} order={order} demo={demo} />
    </Stack>
  );
}
