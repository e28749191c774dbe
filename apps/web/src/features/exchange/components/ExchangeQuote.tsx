import type { SpotMarketData } from '@bourse/protocol';
import { Num } from '@bourse/ui';
import { Divider, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Line, QuoteNote, ThinBookNote } from '../../../shared/spot/components/ConversionParts.tsx';
import { RuleHints } from '../../../shared/spot/components/RuleHints.tsx';
import { show } from '../../../shared/spot/logic/amounts.ts';
import type { Exchange } from '../hooks/useExchange.ts';

/** The rate from the live book, or a loader while the book comes, or "--". */
function RateValue({ exchange }: { exchange: Exchange }) {
  const { t } = useTranslation('trade');
  const { quote, from, to, toDigits } = exchange;
  if (quote?.rate != null && from && to)
    return (
      <Text size="sm" fw={600} data-testid="exchange-rate">
        {t('exchange.rateValue', { from, to, price: show(quote.rate, Math.max(toDigits, 8)) })}
      </Text>
    );
  if (exchange.depth.isPending) return <Loader size="xs" />;
  return <Text size="sm">--</Text>;
}

/** The live quote: rate, what is paid, the fee, what is received, and the notes on it. */
export function ExchangeQuote({ exchange, market }: { exchange: Exchange; market: SpotMarketData }) {
  const { t } = useTranslation('trade');
  const { quote, from, to, fromDigits, toDigits, amountUnits } = exchange;
  return (
    <Stack gap={6} data-testid="exchange-quote">
      <Line label={t('exchange.rate')}>
        <RateValue exchange={exchange} />
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
  );
}
