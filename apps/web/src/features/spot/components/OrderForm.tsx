import { moneyScaleOf, scaleOf } from '@bourse/money';
import type { SpotBalanceData, SpotMarketData, SpotOrderType, SpotSide } from '@bourse/protocol';
import { Num } from '@bourse/ui';
import { Alert, Button, Group, Slider, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { ApiError } from '../../../lib/api.ts';
import { useTicker } from '../../../lib/marketStore.ts';
import { rememberReturnTo } from '../../../lib/returnTo.ts';
import { newClientOid, useCreateOrder } from '../../../shared/spot/api/createOrder.ts';
import { RuleHints } from '../../../shared/spot/components/RuleHints.tsx';
import {
  feePreview,
  marketCheckPrice,
  ruleBreaks,
  SLIDER_STEPS,
  show,
  sliderQty,
  units,
} from '../../../shared/spot/logic/amounts.ts';
import { fillBase, type Level } from '../../../shared/spot/logic/quote.ts';
import { ratePct, rulesOf } from '../../../shared/spot/logic/rules.ts';
import { type BookState, depthView } from '../logic/book.ts';

function bookLevels(book: BookState, side: SpotSide): Level[] {
  const view = depthView(book, 200);
  return (side === 'buy' ? view.asks : view.bids).map((r) => ({ price: r.priceUnits, qty: r.qtyUnits }));
}

/**
 * One side's order form: limit or market, price, quantity, the percent-of-balance slider, the
 * available balance, the order value and fee preview, and every rule the order would break shown
 * while typing. The server checks the same rules; its refusal is shown under the button.
 */
export function OrderForm({
  market,
  side,
  kind,
  book,
  balance,
  loggedIn,
  pickedPrice,
}: {
  market: SpotMarketData;
  side: SpotSide;
  kind: SpotOrderType;
  book: BookState;
  balance: SpotBalanceData | undefined;
  loggedIn: boolean;
  pickedPrice: { price: string; at: number } | null;
}) {
  const { t } = useTranslation('trade');
  const location = useLocation();
  const [price, setPrice] = useState('');
  const [qty, setQty] = useState('');
  const [pct, setPct] = useState(0);
  const [refusal, setRefusal] = useState<ApiError | null>(null);
  const create = useCreateOrder();
  const rules = rulesOf(market);
  const makerRate = units(market.maker_fee_rate) ?? 0n;
  const takerRate = units(market.taker_fee_rate) ?? 0n;
  const asset = side === 'buy' ? market.quote : market.base;
  const availableText = balance ? (side === 'buy' ? balance.quote_available : balance.base_available) : null;
  const available = units(availableText) ?? 0n;

  // A clicked book level fills the price (limit orders).
  useEffect(() => {
    if (pickedPrice) setPrice(pickedPrice.price);
  }, [pickedPrice]);

  const quoteScale = scaleOf(market.quote);
  const priceUnits = kind === 'limit' ? units(price) : null;
  const qtyUnits = units(qty);
  const levels = bookLevels(book, side);
  const estimate = kind === 'market' && qtyUnits !== null ? fillBase(levels, qtyUnits, side) : null;
  const best = levels[0]?.price ?? null;
  const at = kind === 'limit' ? priceUnits : (estimate?.avgPrice ?? best);
  // A market order is checked (and a buy frozen) at the reference price, a buy plus the band.
  const ticker = useTicker(market.symbol);
  const reference = units(ticker?.mark) ?? units(ticker?.last) ?? best;
  const checkAt =
    kind === 'limit'
      ? priceUnits
      : reference === null
        ? null
        : marketCheckPrice({ side, reference, bandBps: market.price_band_bps, tick: rules.tick });
  const fee =
    qtyUnits === null
      ? null
      : feePreview({ kind, price: at, qty: qtyUnits, makerRate, takerRate, quoteScale });
  const breaks =
    qtyUnits === null || qtyUnits === 0n || (kind === 'limit' && (priceUnits === null || priceUnits === 0n))
      ? []
      : ruleBreaks({
          rules,
          side,
          price: priceUnits,
          qty: qtyUnits,
          estimatePrice: checkAt,
          available,
          buyFeeRate: takerRate > makerRate ? takerRate : makerRate,
          quoteScale,
        });
  const quoteDigits = Math.max(market.price_scale, 2);
  const ready =
    qtyUnits !== null && qtyUnits > 0n && (kind === 'market' || (priceUnits !== null && priceUnits > 0n));

  const onSlide = (value: number) => {
    setPct(value);
    const slidePrice = kind === 'limit' ? priceUnits : checkAt;
    const q = sliderQty({
      side,
      pct: value,
      available,
      price: slidePrice,
      lot: rules.lot,
      buyFeeRate: takerRate > makerRate ? takerRate : makerRate,
    });
    setQty(q === 0n ? '' : show(q, market.quantity_scale));
  };

  const submit = () => {
    if (!ready) return;
    setRefusal(null);
    create.mutate(
      {
        symbol: market.symbol,
        side,
        type: kind,
        ...(kind === 'limit' ? { price: price.trim() } : {}),
        quantity: qty.trim(),
        client_oid: newClientOid(),
      },
      {
        onSuccess: (order) => {
          setQty('');
          setPct(0);
          notifications.show({
            color: 'teal',
            message: t('form.placed', {
              side: t(`orders.sideName.${order.side}`),
              qty: order.quantity,
              base: market.base,
            }),
          });
        },
        onError: (error) => {
          if (error instanceof ApiError && error.kind === 'refused') setRefusal(error);
        },
      },
    );
  };

  if (!loggedIn) {
    return (
      <Stack gap="xs" align="stretch" py="md" data-testid={`form-${side}`} data-logged-out>
        <Text size="sm" c="dimmed" ta="center">
          {t('form.loginPrompt')}
        </Text>
        <Button
          component={Link}
          to="/login"
          onClick={() => rememberReturnTo(`${location.pathname}${location.search}`)}
          color={side === 'buy' ? 'teal' : 'red'}
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

  return (
    <Stack gap={8} data-testid={`form-${side}`} data-kind={kind}>
      <Group justify="space-between" gap={4}>
        <Text size="xs" c="dimmed">
          {t('form.available')}
        </Text>
        <Num
          value={availableText}
          kind="money"
          scale={moneyScaleOf(asset)}
          size="xs"
          fw={600}
          suffix={` ${asset}`}
          data-testid={`available-${side}`}
          data-value={availableText ?? ''}
        />
      </Group>
      {kind === 'limit' ? (
        <TextInput
          size="sm"
          label={t('form.price')}
          rightSection={
            <Text size="xs" c="dimmed">
              {market.quote}
            </Text>
          }
          rightSectionWidth={56}
          value={price}
          inputMode="decimal"
          autoComplete="off"
          onChange={(e) => setPrice(e.currentTarget.value)}
          error={price !== '' && priceUnits === null ? t('form.invalidNumber') : undefined}
          data-testid={`price-${side}`}
        />
      ) : (
        <TextInput size="sm" label={t('form.price')} value={t('form.marketPrice')} disabled readOnly />
      )}
      <TextInput
        size="sm"
        label={t('form.qty')}
        rightSection={
          <Text size="xs" c="dimmed">
            {market.base}
          </Text>
        }
        rightSectionWidth={56}
        value={qty}
        inputMode="decimal"
        autoComplete="off"
        onChange={(e) => {
          setQty(e.currentTarget.value);
          setPct(0);
        }}
        error={qty !== '' && qtyUnits === null ? t('form.invalidNumber') : undefined}
        data-testid={`qty-${side}`}
      />
      <Slider
        value={pct}
        onChange={onSlide}
        step={25}
        min={0}
        max={100}
        restrictToMarks
        marks={[0, ...SLIDER_STEPS].map((v) => ({ value: v }))}
        label={(v) => t('form.percent', { pct: v })}
        color={side === 'buy' ? 'teal' : 'red'}
        aria-label={t('form.percentLabel')}
        mx={6}
        my={4}
        data-testid={`slider-${side}`}
      />
      <Group gap={4} grow>
        {SLIDER_STEPS.map((v) => (
          <Button
            key={v}
            size="compact-xs"
            variant={pct === v ? 'light' : 'default'}
            color={side === 'buy' ? 'teal' : 'red'}
            onClick={() => onSlide(v)}
            data-testid={`pct-${side}-${v}`}
          >
            {t('form.percent', { pct: v })}
          </Button>
        ))}
      </Group>
      <Stack gap={2} data-testid={`preview-${side}`}>
        {kind === 'market' ? (
          <Group justify="space-between" gap={4}>
            <Text size="xs" c="dimmed">
              {t('form.estimatePrice')}
            </Text>
            <Num
              value={estimate?.avgPrice == null ? null : show(estimate.avgPrice, market.price_scale)}
              kind="price"
              scale={market.price_scale}
              size="xs"
            />
          </Group>
        ) : null}
        <Group justify="space-between" gap={4}>
          <Text size="xs" c="dimmed">
            {kind === 'market' ? t('form.estimate') : t('form.notional')}
          </Text>
          <Num
            value={fee?.notional == null ? null : show(fee.notional, quoteDigits, 'ceil')}
            size="xs"
            suffix={` ${market.quote}`}
            data-testid={`notional-${side}`}
          />
        </Group>
        {kind === 'limit' ? (
          <Group justify="space-between" gap={4}>
            <Text size="xs" c="dimmed">
              {t('form.feeMaker', { rate: ratePct(market.maker_fee_rate) })}
            </Text>
            <Num
              value={fee?.maker == null ? null : show(fee.maker, 8, 'ceil')}
              size="xs"
              suffix={` ${market.quote}`}
              data-testid={`fee-maker-${side}`}
            />
          </Group>
        ) : null}
        <Group justify="space-between" gap={4}>
          <Text size="xs" c="dimmed">
            {kind === 'limit'
              ? t('form.feeTaker', { rate: ratePct(market.taker_fee_rate) })
              : t('form.feeMarket', { rate: ratePct(market.taker_fee_rate) })}
          </Text>
          <Num
            value={fee?.taker == null ? null : show(fee.taker, 8, 'ceil')}
            size="xs"
            suffix={` ${market.quote}`}
            data-testid={`fee-taker-${side}`}
          />
        </Group>
        {estimate && !estimate.complete ? (
          <Text size="xs" c="orange.7" data-testid={`thin-${side}`}>
            {t('form.thinBook')}
          </Text>
        ) : null}
        <RuleHints breaks={breaks} market={market} side={side} />
      </Stack>
      <Button
        color={side === 'buy' ? 'teal' : 'red'}
        onClick={submit}
        loading={create.isPending}
        disabled={!ready}
        data-testid={`submit-${side}`}
      >
        {side === 'buy'
          ? t('form.buyBase', { base: market.base })
          : t('form.sellBase', { base: market.base })}
      </Button>
      {refusal ? (
        <Alert
          color="red"
          variant="light"
          p="xs"
          data-testid={`refusal-${side}`}
          data-reason={refusal.reason ?? ''}
        >
          <Text size="xs">{refusal.message}</Text>
        </Alert>
      ) : null}
    </Stack>
  );
}
