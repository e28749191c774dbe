import { SPOT_LIMITS, type SpotMarketData, type SpotOrderType, type SpotSide } from '@bourse/protocol';
import { Num } from '@bourse/ui';
import {
  Alert,
  Badge,
  Box,
  Button,
  Grid,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TradeSwitch } from '../../../components/TradeSwitch.tsx';
import { useTicker } from '../../../lib/marketStore.ts';
import { KlineChart } from '../../../shared/chart/KlineChart.tsx';
import { useSpotBalance } from '../../../shared/spot/api/getSpotBalance.ts';
import { ratePct } from '../../../shared/spot/logic/rules.ts';
import { useCancelAllOrders } from '../api/cancelAllOrders.ts';
import { useCurrentOrders, useHistoryOrders, useMyTrades } from '../api/getOrders.ts';
import { useLiveBook } from '../hooks/useLiveBook.ts';
import { useSpotMarket } from '../hooks/useSpotMarket.ts';
import type { PrivateStatus } from '../hooks/useSpotPrivate.ts';
import { useSpotPrivateSync } from '../hooks/useSpotPrivateSync.ts';
import type { BookState } from '../logic/book.ts';
import { OrderBook } from './OrderBook.tsx';
import { OrderForm } from './OrderForm.tsx';
import { FillsTable, OrdersTable } from './OrderTables.tsx';
import { RecentTrades } from './RecentTrades.tsx';

const WIDE = '(min-width: 75em)';
const PICKER_LIMIT = 50;

function Stat({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      {children}
    </Stack>
  );
}

function Header({ market, demo }: { market: SpotMarketData; demo: boolean }) {
  const { t } = useTranslation('trade');
  const ticker = useTicker(market.symbol);
  return (
    <Group gap="xl" wrap="wrap" data-testid="spot-header">
      <Stat label={t('market.last')}>
        <Num
          value={ticker?.last}
          kind="price"
          scale={market.price_scale}
          size="lg"
          fw={700}
          trend={ticker?.move ?? 'none'}
          data-testid="spot-last"
        />
      </Stat>
      <Stat label={t('market.change')}>
        <Num value={ticker?.change_pct} percent signed trend="auto" size="sm" fw={600} />
      </Stat>
      <Box visibleFrom="sm">
        <Group gap="xl">
          <Stat label={t('market.high')}>
            <Num value={ticker?.high} kind="price" scale={market.price_scale} size="sm" />
          </Stat>
          <Stat label={t('market.low')}>
            <Num value={ticker?.low} kind="price" scale={market.price_scale} size="sm" />
          </Stat>
          <Stat label={t('market.volume')}>
            <Num value={ticker?.volume} size="sm" suffix={` ${market.base}`} />
          </Stat>
        </Group>
      </Box>
      {demo ? (
        <Badge color="orange" variant="light" data-testid="demo-book">
          {t('market.demoBook')}
        </Badge>
      ) : null}
    </Group>
  );
}

function Rules({ market }: { market: SpotMarketData }) {
  const { t } = useTranslation('trade');
  const row = (label: string, value: string, testId: string) => (
    <Group justify="space-between" gap={4} key={testId}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="xs" fw={500} style={{ fontVariantNumeric: 'tabular-nums' }} data-testid={testId}>
        {value}
      </Text>
    </Group>
  );
  return (
    <Paper withBorder radius="md" p="sm" data-testid="spot-rules">
      <Text fw={600} size="sm" mb={6}>
        {t('market.rules')}
      </Text>
      <Stack gap={4}>
        {row(t('market.tick'), `${market.price_tick} ${market.quote}`, 'rule-tick')}
        {row(t('market.lot'), `${market.lot_size} ${market.base}`, 'rule-lot')}
        {row(t('market.minQty'), `${market.min_quantity} ${market.base}`, 'rule-min-qty')}
        {row(t('market.minNotional'), `${market.min_notional} ${market.quote}`, 'rule-min-notional')}
        {row(t('market.maxNotional'), `${market.max_notional} ${market.quote}`, 'rule-max-notional')}
        {row(t('market.makerFee'), ratePct(market.maker_fee_rate), 'rule-maker')}
        {row(t('market.takerFee'), ratePct(market.taker_fee_rate), 'rule-taker')}
        {row(t('market.band'), `${market.price_band_bps / 100}%`, 'rule-band')}
        {row(t('market.openMax'), String(SPOT_LIMITS.openOrdersPerMarketMax), 'rule-open-max')}
      </Stack>
    </Paper>
  );
}

/** The order entry panel: limit/market, and both sides (desktop) or a buy/sell switch (phone). */
function EntryPanel({
  market,
  book,
  loggedIn,
  both,
  picked,
}: {
  market: SpotMarketData;
  book: BookState;
  loggedIn: boolean;
  both: boolean;
  picked: { price: string; at: number } | null;
}) {
  const { t } = useTranslation('trade');
  const [kind, setKind] = useState<SpotOrderType>('limit');
  const [side, setSide] = useState<SpotSide>('buy');
  const balance = useSpotBalance(loggedIn ? market.symbol : null);
  const form = (s: SpotSide) => (
    <OrderForm
      key={`${s}-${kind}`}
      market={market}
      side={s}
      kind={kind}
      book={book}
      balance={balance.data}
      loggedIn={loggedIn}
      pickedPrice={picked}
    />
  );
  return (
    <Paper withBorder radius="md" p="sm" data-testid="order-entry">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          {both ? null : (
            <SegmentedControl
              value={side}
              onChange={(v) => setSide(v as SpotSide)}
              data={[
                { value: 'buy', label: t('form.buy') },
                { value: 'sell', label: t('form.sell') },
              ]}
              color={side === 'buy' ? 'teal' : 'red'}
              data-testid="side-switch"
            />
          )}
          <Tabs value={kind} onChange={(v) => v && setKind(v as SpotOrderType)} variant="pills">
            <Tabs.List>
              <Tabs.Tab value="limit" data-testid="kind-limit">
                {t('form.limit')}
              </Tabs.Tab>
              <Tabs.Tab value="market" data-testid="kind-market">
                {t('form.market')}
              </Tabs.Tab>
            </Tabs.List>
          </Tabs>
        </Group>
        {market.status === 'halted' ? (
          <Alert color="orange" variant="light" p="xs" data-testid="market-halted">
            {market.halt_reason
              ? t('market.halted', { symbol: market.symbol, reason: market.halt_reason })
              : t('market.haltedNoReason', { symbol: market.symbol })}
          </Alert>
        ) : null}
        {both ? (
          <SimpleGrid cols={2} spacing="lg">
            {form('buy')}
            {form('sell')}
          </SimpleGrid>
        ) : (
          form(side)
        )}
        <Text size="xs" c="dimmed">
          {t('form.feeNote', { quote: market.quote })}
        </Text>
      </Stack>
    </Paper>
  );
}

/** Current orders, history and the customer's trades of this market. */
function MyOrders({
  market,
  loggedIn,
  status,
}: {
  market: SpotMarketData;
  loggedIn: boolean;
  status: PrivateStatus;
}) {
  const { t } = useTranslation('trade');
  const [tab, setTab] = useState<string>('current');
  const cancelAll = useCancelAllOrders();
  const filter = { symbol: market.symbol, page: 1, page_size: 20 };
  const current = useCurrentOrders(filter);
  const history = useHistoryOrders(filter);
  const fills = useMyTrades(filter);
  return (
    <Paper withBorder radius="md" p="sm" data-testid="my-orders">
      <Tabs value={tab} onChange={(v) => v && setTab(v)}>
        <Tabs.List mb="sm">
          <Tabs.Tab value="current" data-testid="tab-current">
            {t('orders.current')}
            {current.data ? ` (${current.data.total})` : ''}
          </Tabs.Tab>
          <Tabs.Tab value="history" data-testid="tab-history">
            {t('orders.history')}
          </Tabs.Tab>
          <Tabs.Tab value="fills" data-testid="tab-fills">
            {t('orders.fills')}
          </Tabs.Tab>
          {loggedIn ? (
            <Group gap="xs" ml="auto" wrap="nowrap">
              {tab === 'current' && (current.data?.total ?? 0) > 0 ? (
                <Button
                  size="compact-xs"
                  variant="subtle"
                  color="red"
                  loading={cancelAll.isPending}
                  onClick={() =>
                    cancelAll.mutate(market.symbol, {
                      onError: (error) => notifications.show({ color: 'red', message: error.message }),
                    })
                  }
                  data-testid="cancel-all"
                >
                  {t('orders.cancelAll')}
                </Button>
              ) : null}
              <Badge
                variant="dot"
                color={status === 'live' ? 'teal' : 'gray'}
                size="sm"
                data-testid="private-status"
                data-status={status}
              >
                {status === 'live' ? t('status.live') : t('status.connecting')}
              </Badge>
            </Group>
          ) : null}
        </Tabs.List>
        {!loggedIn ? (
          <Text c="dimmed" size="sm" ta="center" py="lg">
            {t('orders.loginPrompt')}
          </Text>
        ) : (
          <>
            <Tabs.Panel value="current" data-testid="panel-current">
              <OrdersTable
                items={current.data?.items}
                loading={current.isPending}
                cancel
                showSymbol={false}
              />
            </Tabs.Panel>
            <Tabs.Panel value="history" data-testid="panel-history">
              <OrdersTable
                items={history.data?.items}
                loading={history.isPending}
                cancel={false}
                showSymbol={false}
              />
            </Tabs.Panel>
            <Tabs.Panel value="fills" data-testid="panel-fills">
              <FillsTable items={fills.data?.items} loading={fills.isPending} />
            </Tabs.Panel>
          </>
        )}
      </Tabs>
    </Paper>
  );
}

function TradeBody({ market, demo, loggedIn }: { market: SpotMarketData; demo: boolean; loggedIn: boolean }) {
  const { t } = useTranslation('trade');
  const wide = useMediaQuery(WIDE, window.matchMedia(WIDE).matches, { getInitialValueInEffect: false });
  const book = useLiveBook(market.symbol, demo);
  const [picked, setPicked] = useState<{ price: string; at: number } | null>(null);
  const [view, setView] = useState<string>('book');
  const status = useSpotPrivateSync(loggedIn ? market.symbol : null);
  const pick = (price: string) => setPicked({ price, at: Date.now() });
  const entry = <EntryPanel market={market} book={book} loggedIn={loggedIn} both={wide} picked={picked} />;

  if (wide) {
    return (
      <Stack gap="md" data-private={status}>
        <Grid gap="md">
          <Grid.Col span={3}>
            <OrderBook market={market} book={book} onPick={pick} />
          </Grid.Col>
          <Grid.Col span={6}>
            <Stack gap="md">
              <KlineChart symbol={market.symbol} priceScale={market.price_scale} height={360} />
              {entry}
            </Stack>
          </Grid.Col>
          <Grid.Col span={3}>
            <Stack gap="md">
              <RecentTrades market={market} demo={demo} height={520} />
              <Rules market={market} />
            </Stack>
          </Grid.Col>
        </Grid>
        <MyOrders market={market} loggedIn={loggedIn} status={status} />
      </Stack>
    );
  }
  return (
    <Stack gap="sm" data-private={status}>
      <Tabs value={view} onChange={(v) => v && setView(v)} keepMounted={false}>
        <Tabs.List grow mb="xs">
          <Tabs.Tab value="book" data-testid="view-book">
            {t('view.book')}
          </Tabs.Tab>
          <Tabs.Tab value="trades" data-testid="view-trades">
            {t('view.trades')}
          </Tabs.Tab>
          <Tabs.Tab value="chart" data-testid="view-chart">
            {t('view.chart')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="book">
          <OrderBook market={market} book={book} onPick={pick} rows={6} />
        </Tabs.Panel>
        <Tabs.Panel value="trades">
          <RecentTrades market={market} demo={demo} height={320} />
        </Tabs.Panel>
        <Tabs.Panel value="chart">
          <KlineChart symbol={market.symbol} priceScale={market.price_scale} height={300} />
        </Tabs.Panel>
      </Tabs>
      {entry}
      <MyOrders market={market} loggedIn={loggedIn} status={status} />
      <Rules market={market} />
    </Stack>
  );
}

/**
 * /currencyTrade: spot trading. Market picker and live header; the order book with depth, recent
 * trades and the K-line; limit and market order entry with the percent slider and fee preview;
 * current orders (with cancel), history and the customer's trades, kept live by the private channel.
 */
export function SpotTradePage() {
  const { t } = useTranslation('trade');
  const { markets, list, market, wanted, demo, loggedIn, select } = useSpotMarket();

  if (markets.isPending) {
    return (
      <Stack align="center" py={80}>
        <Loader size="sm" />
      </Stack>
    );
  }
  const picker = (
    <Select
      aria-label={t('market.pick')}
      placeholder={t('market.pickPlaceholder')}
      data={list.map((m) => ({ value: m.symbol, label: m.symbol }))}
      value={market?.symbol ?? null}
      searchable
      limit={PICKER_LIMIT}
      allowDeselect={false}
      w={{ base: 150, xs: 220 }}
      translate="no"
      onChange={(value) => value && select(value)}
      data-testid="spot-picker"
    />
  );
  return (
    <Stack
      gap="md"
      py={{ base: 'sm', sm: 'lg' }}
      data-testid="spot-trade-page"
      data-symbol={market?.symbol ?? ''}
    >
      <TradeSwitch />
      <Group gap="lg" align="center" wrap="wrap" style={{ rowGap: 8 }}>
        <Title order={1} fz={{ base: 20, sm: 26 }} translate="no" visibleFrom="sm" data-testid="spot-symbol">
          {market?.symbol ?? wanted}
        </Title>
        {picker}
        {market ? <Header market={market} demo={demo} /> : null}
      </Group>
      {markets.isError ? (
        <Alert color="red" variant="light">
          {t('common.failed')}
        </Alert>
      ) : !market ? (
        <Text c="dimmed" data-testid="spot-not-found">
          {t('market.notFound', { symbol: wanted ?? '' })}
        </Text>
      ) : (
        <TradeBody key={`${market.symbol}-${demo}`} market={market} demo={demo} loggedIn={loggedIn} />
      )}
    </Stack>
  );
}
