import { scaleOfStep } from '@bourse/money';
import type { ContractInstrumentData, ContractSide } from '@bourse/protocol';
import { Num } from '@bourse/ui';
import {
  Alert,
  Anchor,
  Button,
  Group,
  SegmentedControl,
  Select,
  Stack,
  Tabs,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { ApiError } from '../../../lib/api.ts';
import { useTicker } from '../../../lib/marketStore.ts';
import { rememberReturnTo } from '../../../lib/returnTo.ts';
import { useAssets } from '../../../shared/assets/getAssets.ts';
import { HoursText } from '../../../shared/instrument/InstrumentPanel.tsx';
import {
  newContractOid,
  type QuoteInput,
  useContractQuote,
  useJurisdiction,
  useOpenContract,
} from '../api.ts';
import { defaultLeverage, lotsBreak, positive, priceBreak, tpSlBreaks } from '../logic.ts';

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Group justify="space-between" gap={4} wrap="nowrap">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      {children}
    </Group>
  );
}

/** The leverage caps note: shown when the jurisdiction profile's cap is what limits this instrument. */
function LeverageNote({ instrument }: { instrument: ContractInstrumentData }) {
  const { t } = useTranslation('contract');
  const jurisdiction = useJurisdiction();
  const active = jurisdiction.data?.active;
  const cap = active?.leverage_caps[instrument.leverage_class];
  if (!active || cap === undefined || cap >= 100 || cap > instrument.max_leverage) return null;
  return (
    <Text size="xs" c="orange.7" data-testid="leverage-capped" data-cap={cap}>
      {t('form.leverageCapped', { cap, profile: t(`profile.${active.id}`) })}
    </Text>
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
  const { t } = useTranslation('contract');
  const priceScale = scaleOfStep(instrument.price_tick);
  const location = useLocation();
  const ticker = useTicker(instrument.symbol);
  const [side, setSide] = useState<ContractSide>(initialSide);
  const [type, setType] = useState<'market' | 'limit'>('market');
  const [price, setPrice] = useState('');
  const [lots, setLots] = useState('');
  const [leverage, setLeverage] = useState(() => defaultLeverage(instrument.leverage_choices));
  const [tp, setTp] = useState('');
  const [sl, setSl] = useState('');
  const [refusal, setRefusal] = useState<ApiError | null>(null);
  const open = useOpenContract();
  const assets = useAssets(loggedIn ? 'contract' : undefined);
  const contractUsdt = assets.data?.accounts
    .find((a) => a.type === 'contract')
    ?.rows.find((r) => r.currency === 'USDT')?.available;

  const lotsProblem = lotsBreak(lots, instrument);
  const priceProblem = type === 'limit' ? priceBreak(price, instrument.price_tick) : null;
  const reference =
    type === 'limit' ? (priceProblem === null && price.trim() !== '' ? price.trim() : null) : ticker?.last;
  const sideBreaks = tpSlBreaks({ side, tp, sl, reference });
  const ready =
    lots.trim() !== '' &&
    lotsProblem === null &&
    (type === 'market' || (price.trim() !== '' && priceProblem === null)) &&
    !sideBreaks.some((b) => b.endsWith('Invalid'));

  const quoteInput: QuoteInput | null =
    loggedIn &&
    lots.trim() !== '' &&
    lotsProblem === null &&
    (type === 'market' || (price.trim() !== '' && priceProblem === null))
      ? {
          symbol: instrument.symbol,
          side,
          lots: lots.trim(),
          leverage,
          ...(type === 'limit' ? { price: price.trim() } : {}),
        }
      : null;
  const [debounced] = useDebouncedValue(quoteInput, 300);
  const quote = useContractQuote(debounced);
  const quoteRefusal = quote.error instanceof ApiError && quote.error.kind === 'refused' ? quote.error : null;
  const q = quoteInput && debounced ? quote.data : undefined;

  const submit = () => {
    if (!ready) return;
    setRefusal(null);
    open.mutate(
      {
        symbol: instrument.symbol,
        side,
        type,
        ...(type === 'limit' ? { price: price.trim() } : {}),
        lots: lots.trim(),
        leverage,
        ...(tp.trim() ? { tp_price: tp.trim() } : {}),
        ...(sl.trim() ? { sl_price: sl.trim() } : {}),
        client_oid: newContractOid(),
      },
      {
        onSuccess: (result) => {
          const args = { side: t(`side.${side}`), lots: lots.trim(), symbol: instrument.symbol };
          notifications.show({
            color: 'teal',
            message:
              result.position || !result.order
                ? t('form.opened', args)
                : t('form.placed', { ...args, price: result.order.price }),
          });
          setLots('');
          setTp('');
          setSl('');
          onDone?.();
        },
        onError: (error) => {
          if (error instanceof ApiError && error.kind === 'refused') setRefusal(error);
        },
      },
    );
  };

  if (!loggedIn) {
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

  const tpSlHint = (field: 'tp' | 'sl') => {
    const b = sideBreaks.find((x) => x.startsWith(field));
    if (!b) return undefined;
    if (b === 'tpInvalid' || b === 'slInvalid') return t(`form.hint.${b}`);
    return t(`form.hint.${field}Side${side === 'buy' ? 'Buy' : 'Sell'}`, { price: reference ?? '' });
  };
  const color = side === 'buy' ? 'teal' : 'red';
  const noFunds = assets.data !== undefined && !positive(contractUsdt);
  const leverageData = [...instrument.leverage_choices]
    .sort((a, b) => a - b)
    .map((c) => ({ value: String(c), label: `${c}×` }));

  return (
    <Stack gap={8} data-testid="contract-form" data-side={side} data-type={type}>
      {sideSwitch ? (
        <SegmentedControl
          fullWidth
          value={side}
          onChange={(v) => setSide(v as ContractSide)}
          data={[
            { value: 'buy', label: t('form.buy') },
            { value: 'sell', label: t('form.sell') },
          ]}
          color={color}
          data-testid="form-side"
        />
      ) : null}
      <Tabs value={type} onChange={(v) => v && setType(v as 'market' | 'limit')} variant="pills">
        <Tabs.List>
          <Tabs.Tab value="market" data-testid="form-type-market">
            {t('form.market')}
          </Tabs.Tab>
          <Tabs.Tab value="limit" data-testid="form-type-limit">
            {t('form.limit')}
          </Tabs.Tab>
        </Tabs.List>
      </Tabs>
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
      {type === 'limit' ? (
        <TextInput
          size="sm"
          label={t('form.price')}
          description={t('form.tickHint', { tick: instrument.price_tick, quote: instrument.quote })}
          rightSection={
            <Text size="xs" c="dimmed" translate="no">
              {instrument.quote}
            </Text>
          }
          rightSectionWidth={52}
          value={price}
          inputMode="decimal"
          autoComplete="off"
          onChange={(e) => setPrice(e.currentTarget.value)}
          error={priceProblem ? t(`form.hint.${priceProblem}`, { tick: instrument.price_tick }) : undefined}
          data-testid="form-price"
        />
      ) : (
        <TextInput size="sm" label={t('form.price')} value={t('form.marketPrice')} disabled readOnly />
      )}
      <TextInput
        size="sm"
        label={t('form.lots')}
        description={t('form.lotHint', {
          step: instrument.lot_step,
          min: instrument.min_lots,
          max: instrument.max_lots,
        })}
        value={lots}
        inputMode="decimal"
        autoComplete="off"
        onChange={(e) => setLots(e.currentTarget.value)}
        error={
          lotsProblem
            ? t(`form.hint.${lotsProblem}`, {
                step: instrument.lot_step,
                min: instrument.min_lots,
                max: instrument.max_lots,
              })
            : undefined
        }
        data-testid="form-lots"
      />
      <Text size="xs" c="dimmed" data-testid="form-lot-size">
        {t('form.lotSize', { size: instrument.contract_size, base: instrument.base })}
      </Text>
      <Select
        size="sm"
        label={t('form.leverage')}
        description={t('form.leverageMax', { max: instrument.max_leverage })}
        data={leverageData}
        value={String(leverage)}
        allowDeselect={false}
        onChange={(v) => v && setLeverage(Number(v))}
        data-testid="form-leverage"
      />
      <LeverageNote instrument={instrument} />
      <Group grow gap="xs" align="flex-start">
        <TextInput
          size="sm"
          label={t('form.tp')}
          placeholder={t('form.optional')}
          value={tp}
          inputMode="decimal"
          autoComplete="off"
          onChange={(e) => setTp(e.currentTarget.value)}
          error={tpSlHint('tp')}
          data-testid="form-tp"
        />
        <TextInput
          size="sm"
          label={t('form.sl')}
          placeholder={t('form.optional')}
          value={sl}
          inputMode="decimal"
          autoComplete="off"
          onChange={(e) => setSl(e.currentTarget.value)}
          error={tpSlHint('sl')}
          data-testid="form-sl"
        />
      </Group>
      <Text size="xs" c="dimmed" data-testid="form-side-rule">
        {side === 'buy' ? t('form.sideRuleBuy') : t('form.sideRuleSell')}
      </Text>
      <Stack gap={2} data-testid="form-preview" data-ready={q ? 'yes' : 'no'}>
        <Text size="xs" fw={600}>
          {t('form.preview')}
        </Text>
        {quoteRefusal && quoteInput ? (
          <Text
            size="xs"
            c="orange.7"
            data-testid="form-preview-refusal"
            data-reason={quoteRefusal.reason ?? ''}
          >
            {quoteRefusal.message}
          </Text>
        ) : !quoteInput ? (
          <Text size="xs" c="dimmed">
            {t('form.previewHint')}
          </Text>
        ) : null}
        <Row label={t('form.openPrice')}>
          <Num value={q?.price} kind="price" scale={priceScale} size="xs" data-testid="preview-price" />
        </Row>
        <Row label={t('form.notional')}>
          <Num value={q?.notional_usdt} kind="fiat" size="xs" suffix=" USDT" data-testid="preview-notional" />
        </Row>
        <Row label={t('form.margin')}>
          <Num
            value={q?.margin}
            decimals={2}
            size="xs"
            suffix=" USDT"
            data-testid="preview-margin"
            data-value={q?.margin ?? ''}
          />
        </Row>
        <Row label={t('form.fee')}>
          <Num
            value={q?.fee}
            decimals={2}
            size="xs"
            suffix=" USDT"
            data-testid="preview-fee"
            data-value={q?.fee ?? ''}
          />
        </Row>
        <Row label={t('form.required')}>
          <Num
            value={q?.required}
            decimals={2}
            size="xs"
            fw={600}
            suffix=" USDT"
            data-testid="preview-required"
          />
        </Row>
        <Row label={t('form.available')}>
          <Num value={q?.available} kind="fiat" size="xs" suffix=" USDT" data-testid="preview-available" />
        </Row>
        <Row label={t('form.liquidationPrice')}>
          <Num
            value={q?.liquidation_price}
            kind="price"
            scale={priceScale}
            size="xs"
            data-testid="preview-liq"
          />
        </Row>
        <Row label={t('form.closeFee')}>
          <Num value={q?.close_fee} decimals={2} size="xs" suffix=" USDT" data-testid="preview-close-fee" />
        </Row>
      </Stack>
      <Button
        color={color}
        onClick={submit}
        loading={open.isPending}
        disabled={!ready}
        data-testid="form-submit"
      >
        {side === 'buy'
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
    </Stack>
  );
}
