import type { SpotMarketData, SpotSide } from '@bourse/protocol';
import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { type RuleBreak, show } from '../logic/amounts.ts';

/** One rule's hint, in the customer's language. */
function Hint({ item, market, side }: { item: RuleBreak; market: SpotMarketData; side: SpotSide }) {
  const { t } = useTranslation('trade');
  const q = market.quantity_scale;
  const p = market.price_scale;
  const text = (() => {
    switch (item.rule) {
      case 'tick':
        return t('form.hint.tick', { step: market.price_tick });
      case 'lot':
        return t('form.hint.lot', { step: market.lot_size });
      case 'minQty':
        return t('form.hint.minQty', { min: market.min_quantity, base: market.base });
      case 'minNotional':
        return t('form.hint.minNotional', { min: market.min_notional, quote: market.quote });
      case 'maxNotional':
        return t('form.hint.maxNotional', { max: market.max_notional, quote: market.quote });
      case 'balance':
        return t('form.hint.balance', {
          need: show(item.need, side === 'buy' ? Math.max(p, 8) : q, 'ceil'),
          available: show(item.available, side === 'buy' ? Math.max(p, 8) : q),
          asset: side === 'buy' ? market.quote : market.base,
        });
    }
  })();
  return (
    <Text size="xs" c="orange.7" data-testid={`hint-${item.rule}`}>
      {text}
    </Text>
  );
}

/** Every rule an order would break, named before the customer submits it. */
export function RuleHints({
  breaks,
  market,
  side,
}: {
  breaks: RuleBreak[];
  market: SpotMarketData;
  side: SpotSide;
}) {
  if (breaks.length === 0) return null;
  return (
    <Stack gap={2} data-testid="rule-hints">
      {breaks.map((item) => (
        <Hint key={item.rule} item={item} market={market} side={side} />
      ))}
    </Stack>
  );
}
