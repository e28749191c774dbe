import type { SpotMarketData } from '@bourse/protocol';
import { Num, trendColor, useNumSettings } from '@bourse/ui';
import { Box, Group, Loader, Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { show } from '../../../shared/spot/logic/amounts.ts';
import { type BookState, type DepthRow, depthView } from '../logic/book.ts';
import classes from './spot.module.css';

/** Rows shown a side on the trade screen. */
export const BOOK_ROWS = 12;

function Row({
  row,
  side,
  market,
  color,
  onPick,
}: {
  row: DepthRow;
  side: 'bid' | 'ask';
  market: SpotMarketData;
  color: string;
  onPick: (price: string) => void;
}) {
  return (
    <Box
      className={classes.bookRow}
      onClick={() => onPick(row.price)}
      data-testid={`book-${side}`}
      data-price={row.price}
      data-qty={row.qty}
    >
      <span className={classes.bar} style={{ width: `${row.depthPct}%`, background: color }} />
      <Num
        value={row.price}
        kind="price"
        scale={market.price_scale}
        size="xs"
        trend={side === 'bid' ? 'up' : 'down'}
      />
      <Num
        value={row.qty}
        kind="quantity"
        scale={market.quantity_scale}
        size="xs"
        className={classes.right}
      />
      <Num
        value={show(row.totalUnits, market.quantity_scale)}
        kind="quantity"
        scale={market.quantity_scale}
        size="xs"
        className={classes.right}
      />
    </Box>
  );
}

/** The live order book with cumulative depth bars; clicking a level copies its price into the form. */
export function OrderBook({
  market,
  book,
  onPick,
  rows = BOOK_ROWS,
}: {
  market: SpotMarketData;
  book: BookState;
  onPick: (price: string) => void;
  rows?: number;
}) {
  const { t } = useTranslation('trade');
  const { rise } = useNumSettings();
  const view = depthView(book, rows);
  const up = `var(--mantine-color-${trendColor('up', rise)}-6)`;
  const down = `var(--mantine-color-${trendColor('down', rise)}-6)`;
  const asks = [...view.asks].reverse();

  return (
    <Paper
      withBorder
      radius="md"
      py="xs"
      data-testid="order-book"
      data-status={book.status}
      data-symbol={market.symbol}
    >
      <Text fw={600} size="sm" px="sm" pb={4}>
        {t('view.book')}
      </Text>
      <div className={classes.bookHead}>
        <span>{t('book.price', { quote: market.quote })}</span>
        <span className={classes.right}>{t('book.qty', { base: market.base })}</span>
        <span className={classes.right}>{t('book.total', { base: market.base })}</span>
      </div>
      {book.status !== 'live' ? (
        <Group justify="center" py="lg" gap="xs" data-testid="book-waiting">
          <Loader size="xs" />
          <Text size="xs" c="dimmed">
            {book.status === 'resync' ? t('book.resync') : t('book.connecting')}
          </Text>
        </Group>
      ) : (
        <>
          <Box
            mih={rows * 22}
            style={{ display: 'flex', flexDirection: 'column', justifyContent: 'flex-end' }}
          >
            {asks.length === 0 ? (
              <Text size="xs" c="dimmed" ta="center" py="xs">
                {t('book.empty')}
              </Text>
            ) : (
              asks.map((row) => (
                <Row key={row.price} row={row} side="ask" market={market} color={down} onPick={onPick} />
              ))
            )}
          </Box>
          <Group justify="space-between" px="sm" py={6} data-testid="book-spread">
            <Text size="xs" c="dimmed">
              {t('book.spread')}
            </Text>
            <Num
              value={view.spread === null ? null : show(view.spread, market.price_scale)}
              kind="price"
              scale={market.price_scale}
              size="xs"
              fw={600}
            />
          </Group>
          <Box>
            {view.bids.length === 0 ? (
              <Text size="xs" c="dimmed" ta="center" py="xs">
                {t('book.empty')}
              </Text>
            ) : (
              view.bids.map((row) => (
                <Row key={row.price} row={row} side="bid" market={market} color={up} onPick={onPick} />
              ))
            )}
          </Box>
        </>
      )}
    </Paper>
  );
}
