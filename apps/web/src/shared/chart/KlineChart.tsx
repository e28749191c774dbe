import { formatPrice } from '@bourse/money';
import {
  type CandleData,
  KLINE_INTERVALS,
  type KlineInterval,
  MARKET_CHANNEL,
  type WsCandlesData,
} from '@bourse/protocol';
import { Num, useNumSettings } from '@bourse/ui';
import {
  Anchor,
  Box,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  useComputedColorScheme,
} from '@mantine/core';
import {
  CandlestickSeries,
  ColorType,
  createChart,
  HistogramSeries,
  type IChartApi,
  type ISeriesApi,
  LineSeries,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRise } from '../../lib/prefs.ts';
import { useChannel } from '../../lib/ws.ts';
import { mergeCandles } from './candles.ts';
import { useKline } from './getKline.ts';
import { MA_PERIODS, movingAverage } from './ma.ts';

const MA_COLORS = ['#f0b90b', '#d63384', '#7048e8'] as const;
const GREEN = '#0ca678';
const RED = '#e03131';
const toTime = (ms: number) => (ms / 1000) as UTCTimestamp;

type Series = {
  candles: ISeriesApi<'Candlestick'>;
  volume: ISeriesApi<'Histogram'>;
  mas: ISeriesApi<'Line'>[];
};

/** What the legend shows: the hovered candle, else the latest. */
function Legend({
  candle,
  mas,
  interval,
  priceScale,
}: {
  candle: CandleData | undefined;
  mas: Array<string | null>;
  interval: KlineInterval;
  priceScale: number;
}) {
  const { t } = useTranslation('market');
  const item = (label: string, value: string | undefined, testId: string, price = true) => (
    <Group gap={4} wrap="nowrap">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Num
        value={value}
        kind={price ? 'price' : undefined}
        scale={price ? priceScale : undefined}
        size="xs"
        fw={600}
        data-testid={testId}
      />
    </Group>
  );
  return (
    <Group
      gap="md"
      px="sm"
      py={6}
      data-testid="chart-legend"
      data-interval={interval}
      data-time={candle?.open_time ?? ''}
      style={{ rowGap: 2 }}
    >
      {item(t('chart.open'), candle?.open, 'legend-open')}
      {item(t('chart.high'), candle?.high, 'legend-high')}
      {item(t('chart.low'), candle?.low, 'legend-low')}
      {item(t('chart.close'), candle?.close, 'legend-close')}
      {item(t('chart.volume'), candle?.volume, 'legend-volume', false)}
      {MA_PERIODS.map((n, i) => (
        <Group key={n} gap={4} wrap="nowrap">
          <Text size="xs" style={{ color: MA_COLORS[i] }}>
            {t('chart.ma', { n })}
          </Text>
          <Num
            value={mas[i] ?? undefined}
            kind="price"
            scale={priceScale}
            size="xs"
            fw={600}
            data-testid={`legend-ma${n}`}
          />
        </Group>
      ))}
    </Group>
  );
}

/**
 * The K-line chart (lightweight-charts): candles, volume histogram, MA7/MA25/MA99 from the candles,
 * a legend with the crosshair's values, live updates from `candles:<symbol>:<interval>`. Used by the
 * instrument view, /preciousMetal and /ldcoin.
 */
export function KlineChart({
  symbol,
  priceScale,
  height = 420,
}: {
  symbol: string;
  priceScale: number;
  height?: number;
}) {
  const { t } = useTranslation('market');
  const [interval, setChartInterval] = useState<KlineInterval>('15m');
  const query = useKline(symbol, interval);
  const [candles, setCandles] = useState<CandleData[]>([]);
  const [hoverTime, setHoverTime] = useState<number | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<IChartApi | null>(null);
  const series = useRef<Series | null>(null);
  const rise = useRise();
  const { locale } = useNumSettings();
  const scheme = useComputedColorScheme('light');
  const up = rise === 'green' ? GREEN : RED;
  const down = rise === 'green' ? RED : GREEN;

  // A new interval or symbol starts from its own history.
  useEffect(() => {
    setCandles(
      query.data && query.data.symbol === symbol && query.data.interval === interval ? query.data.items : [],
    );
    setHoverTime(null);
  }, [query.data, symbol, interval]);

  useChannel(MARKET_CHANNEL.candles(symbol, interval), (event) => {
    const data = event.data as WsCandlesData;
    if (!data || !Array.isArray(data.items) || data.symbol !== symbol || data.interval !== interval) return;
    setCandles((list) => (query.data ? mergeCandles(list, data.items) : list));
  });

  const closes = useMemo(() => candles.map((c) => c.close), [candles]);
  const mas = useMemo(
    () => MA_PERIODS.map((n) => movingAverage(closes, n, priceScale)),
    [closes, priceScale],
  );

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const dark = scheme === 'dark';
    const api = createChart(element, {
      autoSize: true,
      layout: {
        background: { type: ColorType.Solid, color: 'transparent' },
        textColor: dark ? '#c9c9c9' : '#495057',
        attributionLogo: true,
      },
      grid: {
        vertLines: { color: dark ? '#2c2e33' : '#f1f3f5' },
        horzLines: { color: dark ? '#2c2e33' : '#f1f3f5' },
      },
      // Fixed edges let the library pull the first and last time labels inside the canvas (a label
      // centred on the first candle was cut in half at the left edge).
      timeScale: { timeVisible: true, secondsVisible: false, fixLeftEdge: true, fixRightEdge: true },
      // Axis and crosshair prices the way every other price shows: grouped, at the tick scale. The
      // library hands the chart's own float coordinate; it is only drawn, never used as an amount.
      localization: {
        locale,
        priceFormatter: (price: number) => formatPrice(price.toFixed(priceScale), priceScale, { locale }),
      },
      rightPriceScale: { scaleMargins: { top: 0.08, bottom: 0.25 } },
    });
    const minMove = 1 / 10 ** priceScale;
    const candleSeries = api.addSeries(CandlestickSeries, {
      upColor: up,
      downColor: down,
      wickUpColor: up,
      wickDownColor: down,
      borderVisible: false,
      priceFormat: { type: 'price', precision: priceScale, minMove },
    });
    const volume = api.addSeries(HistogramSeries, {
      priceFormat: { type: 'volume' },
      priceScaleId: 'volume',
    });
    api.priceScale('volume').applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
    const maSeries = MA_PERIODS.map((_, i) =>
      api.addSeries(LineSeries, {
        color: MA_COLORS[i],
        lineWidth: 1,
        priceLineVisible: false,
        lastValueVisible: false,
        crosshairMarkerVisible: false,
        priceFormat: { type: 'price', precision: priceScale, minMove },
      }),
    );
    api.subscribeCrosshairMove((param) => {
      setHoverTime(param.time === undefined ? null : (param.time as number) * 1000);
    });
    chart.current = api;
    series.current = { candles: candleSeries, volume, mas: maSeries };
    return () => {
      series.current = null;
      chart.current = null;
      api.remove();
    };
  }, [priceScale, up, down, scheme, locale]);

  // Draw: whole series each change (at most 300 candles; a batch arrives twice a second).
  useEffect(() => {
    const s = series.current;
    if (!s) return;
    s.candles.setData(
      candles.map((c) => ({
        time: toTime(c.open_time),
        open: Number(c.open),
        high: Number(c.high),
        low: Number(c.low),
        close: Number(c.close),
      })),
    );
    s.volume.setData(
      candles.map((c) => ({
        time: toTime(c.open_time),
        value: Number(c.volume),
        color: `${Number(c.close) >= Number(c.open) ? up : down}66`,
      })),
    );
    s.mas.forEach((line, k) => {
      const values = mas[k] ?? [];
      line.setData(
        candles.flatMap((c, i) => {
          const v = values[i];
          return v == null ? [] : [{ time: toTime(c.open_time) as Time, value: Number(v) }];
        }),
      );
    });
  }, [candles, mas, up, down]);

  // Fit once per history load, not on every live update.
  useEffect(() => {
    if (query.data) chart.current?.timeScale().fitContent();
  }, [query.data]);

  const index = hoverTime === null ? candles.length - 1 : candles.findIndex((c) => c.open_time === hoverTime);
  const shownIndex = index >= 0 ? index : candles.length - 1;
  const shown = candles[shownIndex];

  // The library's name is a link inside the sentence, wherever each language puts it.
  const attribution = t('chart.attribution', { name: '\u0000' }).split('\u0000');

  return (
    <Paper withBorder radius="md" data-testid="kline-chart" data-symbol={symbol}>
      <Stack gap={0}>
        <Box px="sm" pt="sm" style={{ overflowX: 'auto' }}>
          <SegmentedControl
            size="xs"
            value={interval}
            onChange={(value) => setChartInterval(value as KlineInterval)}
            aria-label={t('chart.intervals')}
            data={KLINE_INTERVALS.map((i) => ({ value: i, label: t(`chart.interval.${i}`) }))}
            data-testid="chart-intervals"
          />
        </Box>
        <Legend
          candle={shown}
          mas={mas.map((m) => m[shownIndex] ?? null)}
          interval={interval}
          priceScale={priceScale}
        />
        <Box pos="relative" h={height}>
          <Box ref={box} h="100%" data-testid="chart-canvas" />
          {query.isPending || query.isError || (query.isSuccess && candles.length === 0) ? (
            <Stack
              pos="absolute"
              inset={0}
              align="center"
              justify="center"
              style={{ pointerEvents: 'none' }}
              data-testid="chart-status"
            >
              {query.isPending ? <Loader size="sm" /> : null}
              <Text size="sm" c="dimmed">
                {query.isPending ? t('chart.loading') : query.isError ? t('chart.failed') : t('chart.empty')}
              </Text>
            </Stack>
          ) : null}
        </Box>
        <Text size="xs" c="dimmed" px="sm" py={6} ta="right" data-testid="chart-attribution">
          {attribution[0]}
          <Anchor href="https://www.tradingview.com/" target="_blank" rel="noopener" size="xs" translate="no">
            TradingView
          </Anchor>
          {attribution[1]}
        </Text>
      </Stack>
    </Paper>
  );
}
