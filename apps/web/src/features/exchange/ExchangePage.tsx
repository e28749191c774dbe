import { Num } from '@bourse/ui';
import { useTranslation } from 'react-i18next';
import {
  ConversionLoader,
  ConversionPage,
  ConversionResult,
  Line,
} from '../../shared/spot/components/ConversionParts.tsx';
import { show } from '../../shared/spot/logic/amounts.ts';
import { ExchangeForm } from './components/ExchangeForm.tsx';
import { type Exchange, useExchange } from './hooks/useExchange.ts';
import { digitsOf } from './logic/exchange.ts';

/** A settled conversion: what was paid and received, the fee, and "again". */
function ExchangeOutcome({ exchange }: { exchange: Exchange }) {
  const { t } = useTranslation('trade');
  const { outcome, result, market } = exchange;
  if (!outcome || !result || !market) return null;
  return (
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
      onAgain={exchange.again}
    >
      <Line label={t('exchange.fee')}>
        <Num value={result.fee} suffix={` ${result.fee_currency}`} size="sm" />
      </Line>
    </ConversionResult>
  );
}

/**
 * /exchange: convert one currency into another at market. The price is quoted from the live book
 * of the market between them (refreshed every 3 s); a confirm step shows what you pay, what you
 * get and the fee; the conversion is a market order (IOC, protected by the market's price band).
 */
export function ExchangePage() {
  const { t } = useTranslation('trade');
  const exchange = useExchange();
  if (exchange.loading) {
    return <ConversionLoader />;
  }
  const { step, outcome, result, market } = exchange;
  return (
    <ConversionPage
      testId="exchange-page"
      maw={560}
      step={step}
      title={t('exchange.title')}
      subtitle={t('exchange.subtitle')}
    >
      {step === 'done' && outcome && result && market ? (
        <ExchangeOutcome exchange={exchange} />
      ) : (
        <ExchangeForm exchange={exchange} />
      )}
    </ConversionPage>
  );
}
