import type { SpotMarketData } from '@bourse/protocol';
import { Num, useNumSettings } from '@bourse/ui';
import { Loader, Paper, ScrollArea, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useLiveTrades } from '../hooks/useLiveBook.ts';
import classes from './spot.module.css';

function timeOf(ms: number, locale: string): string {
  return new Intl.DateTimeFormat(locale, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
  }).format(ms);
}

/** The latest public prints of the book, live; the price is coloured by the taker's side. */
export function RecentTrades({
  market,
  demo,
  height = 560,
}: {
  market: SpotMarketData;
  demo: boolean;
  height?: number;
}) {
  const { t } = useTranslation('trade');
  const { locale } = useNumSettings();
  const items = useLiveTrades(market.symbol, demo);
  return (
    <Paper withBorder radius="md" py="xs" data-testid="recent-trades">
      <Text fw={600} size="sm" px="sm" pb={4}>
        {t('view.trades')}
      </Text>
      <div className={classes.bookHead}>
        <span>{t('trades.price', { quote: market.quote })}</span>
        <span className={classes.right}>{t('trades.qty', { base: market.base })}</span>
        <span className={classes.right}>{t('trades.time')}</span>
      </div>
      {items === null ? (
        <Stack align="center" py="lg">
          <Loader size="xs" />
        </Stack>
      ) : items.length === 0 ? (
        <Text size="xs" c="dimmed" ta="center" py="lg">
          {t('trades.empty')}
        </Text>
      ) : (
        <ScrollArea h={height} type="auto">
          {items.map((trade) => (
            <div
              key={trade.trade_id}
              className={classes.tradesRow}
              data-testid="trade-row"
              data-price={trade.price}
            >
              <Num
                value={trade.price}
                kind="price"
                scale={market.price_scale}
                size="xs"
                trend={trade.side === 'buy' ? 'up' : 'down'}
              />
              <Num
                value={trade.quantity}
                kind="quantity"
                scale={market.quantity_scale}
                size="xs"
                className={classes.right}
              />
              <Text size="xs" c="dimmed" className={classes.right}>
                {timeOf(trade.time, locale)}
              </Text>
            </div>
          ))}
        </ScrollArea>
      )}
    </Paper>
  );
}
