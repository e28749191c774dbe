import { Alert, Loader, Select, Stack } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCatalogue } from '../../market/api/getTickers.ts';
import { InstrumentView } from './InstrumentView.tsx';

const PICKER_LIMIT = 50;

/**
 * /preciousMetal, the trade route: instrument picker, K-line chart and instrument panel. The
 * instrument is `?symbol=`, else the most popular metal. Order entry arrives with the trading
 * release; until then the screen says so and shows nothing that looks like an order form.
 */
export function TradeScreen() {
  const { t } = useTranslation('market');
  const [params, setParams] = useSearchParams();
  const catalogue = useCatalogue();
  const items = catalogue.data ?? [];
  const fallback = useMemo(
    // The catalogue arrives in popularity order: the first metal is the most popular one.
    () => items.find((r) => r.class === 'metal')?.symbol ?? items[0]?.symbol,
    [items],
  );
  const symbol = params.get('symbol') ?? fallback ?? null;
  const options = useMemo(
    () => items.map((r) => ({ value: r.symbol, label: `${r.symbol} · ${r.name}` })),
    [items],
  );

  if (catalogue.isPending || !symbol) {
    return (
      <Stack align="center" py={80}>
        <Loader size="sm" />
      </Stack>
    );
  }

  const picker = (
    <Select
      label={t('trade.pick')}
      placeholder={t('trade.pickPlaceholder')}
      data={options}
      value={symbol}
      searchable
      limit={PICKER_LIMIT}
      allowDeselect={false}
      maw={420}
      translate="no"
      onChange={(value) => {
        if (!value) return;
        const next = new URLSearchParams(params);
        next.set('symbol', value);
        setParams(next);
      }}
      data-testid="trade-picker"
    />
  );

  return (
    <div data-testid="trade-page">
      <InstrumentView
        key={symbol}
        symbol={symbol}
        picker={picker}
        note={
          <Alert variant="light" color="blue" data-testid="trade-note">
            {t('trade.note')}
          </Alert>
        }
      />
    </div>
  );
}
