import { Num } from '@bourse/ui';
import {
  Button,
  Divider,
  Group,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTicker } from '../../lib/marketStore.ts';
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

/** The quote currency of quick purchases (spec: "quick coin purchase" with USDT). */
const QUOTE = 'USDT';
const PRESETS = ['50', '100', '500', '1000'] as const;

function CoinTile({
  symbol,
  base,
  selected,
  onPick,
}: {
  symbol: string;
  base: string;
  selected: boolean;
  onPick: () => void;
}) {
  const ticker = useTicker(symbol);
  return (
    <UnstyledButton
      onClick={onPick}
      p="sm"
      style={{
        border: `1px solid var(--mantine-color-${selected ? 'blue-6' : 'default-border'})`,
        borderRadius: 8,
        background: selected ? 'var(--mantine-color-blue-light)' : undefined,
        minWidth: 104,
      }}
      data-testid="quick-coin"
      data-symbol={symbol}
      data-selected={selected}
    >
      <Text fw={700} translate="no">
        {base}
      </Text>
      <Num value={ticker?.last} size="xs" />
      <Num value={ticker?.change_pct} size="xs" percent signed trend="auto" ml={6} />
    </UnstyledButton>
  );
}

/**
 * /kjmbSelect: quick coin purchase. Pick a coin, enter what to spend in USDT, preview the price,
 * the quantity and the fee from the live book, confirm: a market buy of whole lots.
 */
export function QuickBuyPage() {
  const { t } = useTranslation('trade');
  const markets = useSpotMarkets();
  const coins = (markets.data ?? []).filter((m) => m.quote === QUOTE && m.status === 'enabled');
  const [symbol, setSymbol] = useState<string | null>(null);
  const market = coins.find((m) => m.symbol === symbol) ?? coins[0];
  // Every coin here is quoted in USDT, so converting from it is always a market buy.
  const {
    amount,
    setAmount,
    amountUnits,
    step,
    setStep,
    result,
    refusal,
    availableText,
    quote,
    submit: buy,
    submitting,
    preview,
    again,
  } = useConversion(market, QUOTE);
  const tooSmall = quote !== null && market !== undefined && quote.qty < (units(market.min_quantity) ?? 0n);

  if (markets.isPending) {
    return <ConversionLoader />;
  }
  if (!market) {
    return (
      <Text c="dimmed" ta="center" py="xl">
        {t('markets.empty')}
      </Text>
    );
  }
  const priceDigits = market.price_scale;
  const quoteDigits = Math.max(market.price_scale, 2);

  return (
    <ConversionPage
      testId="quick-buy-page"
      maw={620}
      step={step}
      title={t('quickBuy.title')}
      subtitle={t('quickBuy.subtitle')}
    >
      {step === 'done' && result ? (
        <ConversionResult
          testId="quick-result"
          status={result.status}
          title={t('quickBuy.done')}
          text={t('quickBuy.doneText', {
            qty: result.filled_quantity,
            base: market.base,
            paid: result.filled_amount,
            quote: market.quote,
            fee: result.fee,
          })}
          textTestId="quick-result-text"
          againLabel={t('quickBuy.again')}
          againTestId="quick-again"
          onAgain={again}
        />
      ) : (
        <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
          <Stack gap="md">
            <Stack gap={6}>
              <Text size="sm" fw={500}>
                {t('quickBuy.coin')}
              </Text>
              <Group gap="xs">
                {coins.map((m) => (
                  <CoinTile
                    key={m.symbol}
                    symbol={m.symbol}
                    base={m.base}
                    selected={m.symbol === market.symbol}
                    onPick={() => {
                      if (step === 'confirm') return;
                      setSymbol(m.symbol);
                    }}
                  />
                ))}
              </Group>
            </Stack>
            <TextInput
              label={t('quickBuy.amount')}
              description={t('exchange.available', {
                amount: availableText ?? '--',
                currency: QUOTE,
              })}
              rightSection={
                <Text size="xs" c="dimmed">
                  {QUOTE}
                </Text>
              }
              rightSectionWidth={56}
              value={amount}
              onChange={(e) => setAmount(e.currentTarget.value)}
              inputMode="decimal"
              autoComplete="off"
              disabled={step === 'confirm'}
              error={amount !== '' && amountUnits === null ? t('form.invalidNumber') : undefined}
              data-testid="quick-amount"
            />
            <SegmentedControl
              value={PRESETS.includes(amount as (typeof PRESETS)[number]) ? amount : ''}
              onChange={setAmount}
              data={PRESETS.map((p) => ({ value: p, label: p }))}
              disabled={step === 'confirm'}
              data-testid="quick-presets"
            />
            <Stack gap={6} data-testid="quick-preview">
              <Line label={t('quickBuy.price')} loose>
                <Num
                  value={quote?.fill.avgPrice != null ? show(quote.fill.avgPrice, priceDigits) : null}
                  decimals={priceDigits}
                  size="sm"
                  suffix={` ${QUOTE}`}
                  data-testid="quick-price"
                />
              </Line>
              <Line label={t('quickBuy.fee')} loose>
                <Num
                  value={quote ? show(quote.fee, 8, 'ceil') : null}
                  size="sm"
                  suffix={` ${QUOTE}`}
                  data-testid="quick-fee"
                />
              </Line>
              <Line label={t('exchange.pay')} loose>
                <Num
                  value={quote ? show(quote.pay, quoteDigits, 'ceil') : null}
                  size="sm"
                  suffix={` ${QUOTE}`}
                  data-testid="quick-pay"
                />
              </Line>
              <Divider />
              <Line label={t('quickBuy.get')} loose>
                <Num
                  value={quote ? show(quote.qty, market.quantity_scale) : null}
                  size="md"
                  fw={700}
                  suffix={` ${market.base}`}
                  data-testid="quick-get"
                />
              </Line>
              {tooSmall ? (
                <Text size="xs" c="orange.7" data-testid="quick-too-small">
                  {t('quickBuy.tooSmall', { min: market.min_quantity, base: market.base })}
                </Text>
              ) : null}
              {quote && !tooSmall ? <RuleHints breaks={quote.breaks} market={market} side="buy" /> : null}
              {quote && !quote.fill.complete ? <ThinBookNote /> : null}
              <QuoteNote market={market} />
            </Stack>
            <RefusalAlert refusal={refusal} testId="quick-refusal" />
            {step === 'form' ? (
              <Button
                size="md"
                color="teal"
                disabled={!quote || quote.qty === 0n}
                onClick={preview}
                data-testid="quick-preview-button"
              >
                {t('quickBuy.preview')}
              </Button>
            ) : (
              <ConfirmPanel
                testId="quick-confirm"
                title={t('quickBuy.confirmTitle')}
                summary={
                  quote
                    ? `${show(quote.pay, quoteDigits, 'ceil')} ${QUOTE} → ${show(quote.qty, market.quantity_scale)} ${market.base}`
                    : null
                }
                backLabel={t('quickBuy.back')}
                backTestId="quick-back"
                onBack={() => setStep('form')}
                confirmLabel={t('quickBuy.confirm')}
                confirmTestId="quick-confirm-button"
                onConfirm={buy}
                submitting={submitting}
                color="teal"
              />
            )}
          </Stack>
        </Paper>
      )}
    </ConversionPage>
  );
}
