import type { SpotMarketData } from '@bourse/protocol';
import { Num } from '@bourse/ui';
import { Divider, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Line, QuoteNote, ThinBookNote } from '../../../shared/spot/components/ConversionParts.tsx';
import { RuleHints } from '../../../shared/spot/components/RuleHints.tsx';
import { show } from '../../../shared/spot/logic/amounts.ts';
import type { QuickBuy } from '../hooks/useQuickBuy.ts';
import { QUOTE } from '../logic/quickBuy.ts';

/** The live preview: average price, fee, what is paid and what is bought, and the notes on it. */
export function QuickPreview({ buy, market }: { buy: QuickBuy; market: SpotMarketData }) {
  const { t } = useTranslation('trade');
  const { quote, tooSmall } = buy;
  const priceDigits = market.price_scale;
  const quoteDigits = Math.max(market.price_scale, 2);
  return (
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
  );
}
