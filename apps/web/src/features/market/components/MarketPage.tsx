import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { InstrumentView } from '../../../shared/instrument/InstrumentView.tsx';
import { MarketList } from './MarketList.tsx';

/** /market: the list; /market?symbol=BTC/USDT the instrument view (the spec shows no route parameters). */
export function MarketPage() {
  const { t } = useTranslation('market');
  const [params, setParams] = useSearchParams();
  const symbol = params.get('symbol');
  if (symbol) {
    const back = new URLSearchParams(params);
    back.delete('symbol');
    const query = back.toString();
    return (
      <InstrumentView
        key={symbol}
        symbol={symbol}
        back={{ to: `/market${query ? `?${query}` : ''}`, label: t('instrument.back') }}
      />
    );
  }
  return (
    <MarketList
      onOpen={(s) => {
        const next = new URLSearchParams(params);
        next.set('symbol', s);
        setParams(next);
      }}
    />
  );
}
