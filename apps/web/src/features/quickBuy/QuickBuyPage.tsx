import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  ConversionLoader,
  ConversionPage,
  ConversionResult,
} from '../../shared/spot/components/ConversionParts.tsx';
import { QuickBuyForm } from './components/QuickBuyForm.tsx';
import { useQuickBuy } from './hooks/useQuickBuy.ts';

/**
 * /kjmbSelect: quick coin purchase. Pick a coin, enter what to spend in USDT, preview the price,
 * the quantity and the fee from the live book, confirm: a market buy of whole lots.
 */
export function QuickBuyPage() {
  const { t } = useTranslation('trade');
  const buy = useQuickBuy();
  const { market, step, result } = buy;

  if (buy.loading) {
    return <ConversionLoader />;
  }
  if (!market) {
    return (
      <Text c="dimmed" ta="center" py="xl">
        {t('markets.empty')}
      </Text>
    );
  }

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
          onAgain={buy.again}
        />
      ) : (
        <QuickBuyForm buy={buy} market={market} />
      )}
    </ConversionPage>
  );
}
