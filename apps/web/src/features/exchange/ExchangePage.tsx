import type { SpotMarketData } from '@bourse/protocol';
import { Num } from '@bourse/ui';
import {
  ActionIcon,
  Alert,
  Button,
  Divider,
  Group,
  Loader,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSpotMarkets } from '../../shared/market/api/getSpotMarkets.ts';
import {
  ConfirmPanel,
  ConversionLoader,
  ConversionPage,
  ConversionResult,
  Line,
  QuoteNote,
  RefusalAlert,
  ThinBookNote,
} from '../../shared/spot/components/ConversionParts.tsx';
import { RuleHints } from '../../shared/spot/components/RuleHints.tsx';
import { useConversion } from '../../shared/spot/hooks/useConversion.ts';
import { show, units } from '../../shared/spot/logic/amounts.ts';

/** Decimal places shown for amounts of a currency in this market. */
function digitsOf(market: SpotMarketData, currency: string): number {
  return currency === market.base ? market.quantity_scale : Math.max(market.price_scale, 2);
}

/** The market that converts `from` into `to`, either way round. */
export function marketBetween(markets: readonly SpotMarketData[], from: string, to: string) {
  return markets.find((m) => (m.base === from && m.quote === to) || (m.base === to && m.quote === from));
}

/**
 * /exchange: convert one currency into another at market. The price is quoted from the live book
 * of the market between them (refreshed every 3 s); a confirm step shows what you pay, what you
 * get and the fee; the conversion is a market order (IOC, protected by the market's price band).
 */
export function ExchangePage() {
  const { t } = useTranslation('trade');
  const markets = useSpotMarkets();
  const list = (markets.data ?? []).filter((m) => m.status === 'enabled');
  const currencies = useMemo(() => [...new Set(list.flatMap((m) => [m.base, m.quote]))].sort(), [list]);
  const [from, setFrom] = useState<string | null>('USDT');
  const [to, setTo] = useState<string | null>('BTC');
  const market = from && to ? marketBetween(list, from, to) : undefined;
  const {
    amount,
    setAmount,
    amountUnits,
    step,
    setStep,
    result,
    refusal,
    depth,
    availableText,
    available,
    quote,
    submit: confirm,
    submitting,
    preview,
    again,
  } = useConversion(market, from);

  const fromDigits = market && from ? digitsOf(market, from) : 8;
  const toDigits = market && to ? digitsOf(market, to) : 8;
  const swap = () => {
    setFrom(to);
    setTo(from);
    setAmount('');
  };

  if (markets.isPending) {
    return <ConversionLoader />;
  }

  const outcome = (() => {
    if (!result || !market) return null;
    const filledAmount = units(result.filled_amount) ?? 0n;
    const fee = units(result.fee) ?? 0n;
    const filledQty = units(result.filled_quantity) ?? 0n;
    return result.side === 'sell'
      ? { paid: filledQty, received: filledAmount - fee, from: market.base, to: market.quote }
      : { paid: filledAmount + fee, received: filledQty, from: market.quote, to: market.base };
  })();

  return (
    <ConversionPage
      testId="exchange-page"
      maw={560}
      step={step}
      title={t('exchange.title')}
      subtitle={t('exchange.subtitle')}
    >
      {step === 'done' && outcome && result && market ? (
        <ConversionResult
          testId="exchange-result"
          status={result.status}
          title={t('exchange.result')}
          text={t('exchange.resultText', {
            paid: show(outcome.paid, digitsOf(market, outcome.from)),
            from: outcome.from,
            received: show(outcome.received, digitsOf(market, outcome.to)),
            to: outcome.to,
          })}
          textTestId="exchange-result-text"
          againLabel={t('exchange.again')}
          againTestId="exchange-again"
          onAgain={again}
        >
          <Line label={t('exchange.fee')}>
            <Num value={result.fee} suffix={` ${result.fee_currency}`} size="sm" />
          </Line>
        </ConversionResult>
      ) : (
        <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
          <Stack gap="md">
            <Group align="flex-end" gap="xs" wrap="nowrap">
              <Select
                label={t('exchange.from')}
                data={currencies}
                value={from}
                onChange={(v) => {
                  setFrom(v);
                  setAmount('');
                }}
                allowDeselect={false}
                searchable
                flex={1}
                disabled={step === 'confirm'}
                data-testid="exchange-from"
              />
              <ActionIcon
                variant="light"
                size="lg"
                mb={2}
                onClick={swap}
                aria-label={t('exchange.swap')}
                disabled={step === 'confirm'}
                data-testid="exchange-swap"
              >
                ⇄
              </ActionIcon>
              <Select
                label={t('exchange.to')}
                data={currencies.filter((c) => c !== from)}
                value={to}
                onChange={setTo}
                allowDeselect={false}
                searchable
                flex={1}
                disabled={step === 'confirm'}
                data-testid="exchange-to"
              />
            </Group>
            {from && to && !market ? (
              <Alert color="orange" variant="light" data-testid="exchange-no-market">
                {t('exchange.noMarket', { from, to })}
              </Alert>
            ) : null}
            <TextInput
              label={t('exchange.amount')}
              description={
                availableText !== null && from
                  ? t('exchange.available', { amount: availableText, currency: from })
                  : undefined
              }
              value={amount}
              onChange={(e) => setAmount(e.currentTarget.value)}
              inputMode="decimal"
              autoComplete="off"
              disabled={!market || step === 'confirm'}
              error={amount !== '' && amountUnits === null ? t('form.invalidNumber') : undefined}
              rightSectionWidth={64}
              rightSection={
                <Button
                  size="compact-xs"
                  variant="subtle"
                  disabled={!market || availableText === null || step === 'confirm'}
                  onClick={() => availableText && setAmount(show(available, fromDigits))}
                  data-testid="exchange-max"
                >
                  {t('exchange.max')}
                </Button>
              }
              data-testid="exchange-amount"
            />
            {market ? (
              <Stack gap={6} data-testid="exchange-quote">
                <Line label={t('exchange.rate')}>
                  {quote?.rate != null && from && to ? (
                    <Text size="sm" fw={600} data-testid="exchange-rate">
                      {t('exchange.rateValue', { from, to, price: show(quote.rate, Math.max(toDigits, 8)) })}
                    </Text>
                  ) : depth.isPending ? (
                    <Loader size="xs" />
                  ) : (
                    <Text size="sm">--</Text>
                  )}
                </Line>
                <Line label={t('exchange.pay')}>
                  <Num
                    value={quote ? show(quote.pay, fromDigits, 'ceil') : null}
                    suffix={` ${from}`}
                    size="sm"
                    data-testid="exchange-pay"
                  />
                </Line>
                <Line label={t('exchange.fee')}>
                  <Num
                    value={quote ? show(quote.fee, Math.max(market.price_scale, 8), 'ceil') : null}
                    suffix={` ${market.quote}`}
                    size="sm"
                    data-testid="exchange-fee"
                  />
                </Line>
                <Divider />
                <Line label={t('exchange.receive')}>
                  <Num
                    value={quote ? show(quote.receive, toDigits) : null}
                    suffix={` ${to}`}
                    size="md"
                    fw={700}
                    data-testid="exchange-receive"
                  />
                </Line>
                {quote && !quote.fill.complete ? <ThinBookNote /> : null}
                {quote && quote.fill.avgPrice === null && amountUnits !== null && amountUnits > 0n ? (
                  <Text size="xs" c="orange.7" data-testid="exchange-no-quote">
                    {t('exchange.noQuote')}
                  </Text>
                ) : null}
                {quote ? <RuleHints breaks={quote.breaks} market={market} side={quote.side} /> : null}
                <QuoteNote market={market} />
              </Stack>
            ) : null}
            <RefusalAlert refusal={refusal} testId="exchange-refusal" />
            {step === 'form' ? (
              <Button
                size="md"
                disabled={!quote || quote.qty === 0n || quote.fill.avgPrice === null}
                onClick={preview}
                data-testid="exchange-preview"
              >
                {t('exchange.preview')}
              </Button>
            ) : (
              <ConfirmPanel
                testId="exchange-confirm"
                bg="var(--mantine-color-default-hover)"
                title={t('exchange.confirmTitle')}
                summary={
                  quote && market && from && to
                    ? `${show(quote.pay, fromDigits, 'ceil')} ${from} → ${show(quote.receive, toDigits)} ${to}`
                    : null
                }
                backLabel={t('exchange.back')}
                backTestId="exchange-back"
                onBack={() => setStep('form')}
                confirmLabel={t('exchange.confirm')}
                confirmTestId="exchange-confirm-button"
                onConfirm={confirm}
                submitting={submitting}
                disabled={!quote}
              />
            )}
          </Stack>
        </Paper>
      )}
    </ConversionPage>
  );
}
