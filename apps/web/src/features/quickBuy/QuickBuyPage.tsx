import { Num } from '@bourse/ui';
import {
  Alert,
  Anchor,
  Button,
  Divider,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useTicker } from '../../lib/marketStore.ts';
import { useSpotMarkets } from '../spot/api/getSpotMarkets.ts';
import { RuleHints } from '../spot/components/RuleHints.tsx';
import { useConversion } from '../spot/hooks/useConversion.ts';
import { show, units } from '../spot/logic/amounts.ts';

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
    return (
      <Stack align="center" py={80}>
        <Loader size="sm" />
      </Stack>
    );
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
    <Stack
      gap="md"
      py={{ base: 'md', sm: 'xl' }}
      maw={620}
      mx="auto"
      w="100%"
      data-testid="quick-buy-page"
      data-step={step}
    >
      <Stack gap={2}>
        <Title order={1} fz={{ base: 22, sm: 28 }}>
          {t('quickBuy.title')}
        </Title>
        <Text c="dimmed" size="sm">
          {t('quickBuy.subtitle')}
        </Text>
      </Stack>
      {step === 'done' && result ? (
        <Paper withBorder radius="md" p="lg" data-testid="quick-result" data-status={result.status}>
          <Stack gap="sm">
            <Title order={2} size="h4">
              {t('quickBuy.done')}
            </Title>
            <Text data-testid="quick-result-text">
              {t('quickBuy.doneText', {
                qty: result.filled_quantity,
                base: market.base,
                paid: result.filled_amount,
                quote: market.quote,
                fee: result.fee,
              })}
            </Text>
            <Group>
              <Button onClick={again} data-testid="quick-again">
                {t('quickBuy.again')}
              </Button>
              <Anchor component={Link} to="/currencyRecord" size="sm">
                {t('exchange.records')}
              </Anchor>
            </Group>
          </Stack>
        </Paper>
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
              <Group justify="space-between">
                <Text size="sm" c="dimmed">
                  {t('quickBuy.price')}
                </Text>
                <Num
                  value={quote?.fill.avgPrice != null ? show(quote.fill.avgPrice, priceDigits) : null}
                  decimals={priceDigits}
                  size="sm"
                  suffix={` ${QUOTE}`}
                  data-testid="quick-price"
                />
              </Group>
              <Group justify="space-between">
                <Text size="sm" c="dimmed">
                  {t('quickBuy.fee')}
                </Text>
                <Num
                  value={quote ? show(quote.fee, 8, 'ceil') : null}
                  size="sm"
                  suffix={` ${QUOTE}`}
                  data-testid="quick-fee"
                />
              </Group>
              <Group justify="space-between">
                <Text size="sm" c="dimmed">
                  {t('exchange.pay')}
                </Text>
                <Num
                  value={quote ? show(quote.pay, quoteDigits, 'ceil') : null}
                  size="sm"
                  suffix={` ${QUOTE}`}
                  data-testid="quick-pay"
                />
              </Group>
              <Divider />
              <Group justify="space-between">
                <Text size="sm" c="dimmed">
                  {t('quickBuy.get')}
                </Text>
                <Num
                  value={quote ? show(quote.qty, market.quantity_scale) : null}
                  size="md"
                  fw={700}
                  suffix={` ${market.base}`}
                  data-testid="quick-get"
                />
              </Group>
              {tooSmall ? (
                <Text size="xs" c="orange.7" data-testid="quick-too-small">
                  {t('quickBuy.tooSmall', { min: market.min_quantity, base: market.base })}
                </Text>
              ) : null}
              {quote && !tooSmall ? <RuleHints breaks={quote.breaks} market={market} side="buy" /> : null}
              {quote && !quote.fill.complete ? (
                <Text size="xs" c="orange.7">
                  {t('exchange.thin')}
                </Text>
              ) : null}
              <Text size="xs" c="dimmed">
                {t('exchange.quoteNote', { band: `${market.price_band_bps / 100}%` })}
              </Text>
            </Stack>
            {refusal ? (
              <Alert color="red" variant="light" data-testid="quick-refusal">
                {refusal}
              </Alert>
            ) : null}
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
              <Paper withBorder radius="md" p="md" data-testid="quick-confirm">
                <Stack gap="sm">
                  <Text fw={600}>{t('quickBuy.confirmTitle')}</Text>
                  <Text size="sm">
                    {quote
                      ? `${show(quote.pay, quoteDigits, 'ceil')} ${QUOTE} → ${show(quote.qty, market.quantity_scale)} ${market.base}`
                      : null}
                  </Text>
                  <Group grow>
                    <Button variant="default" onClick={() => setStep('form')} data-testid="quick-back">
                      {t('quickBuy.back')}
                    </Button>
                    <Button
                      color="teal"
                      onClick={buy}
                      loading={submitting}
                      data-testid="quick-confirm-button"
                    >
                      {t('quickBuy.confirm')}
                    </Button>
                  </Group>
                </Stack>
              </Paper>
            )}
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
