import type { FundNavPoint } from '@bourse/protocol';
import { Box, useComputedColorScheme } from '@mantine/core';
import {
  AreaSeries,
  ColorType,
  createChart,
  type IChartApi,
  type ISeriesApi,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useEffect, useRef } from 'react';

/**
 * The model's NAV per unit, hourly, as an area line (lightweight-charts, as shared/chart). The
 * values come from the server's decimal strings; the chart's float coordinates are only drawn.
 */
export function NavChart({ points, height = 220 }: { points: readonly FundNavPoint[]; height?: number }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<IChartApi | null>(null);
  const series = useRef<ISeriesApi<'Area'> | null>(null);
  const scheme = useComputedColorScheme('light');

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
      timeScale: { timeVisible: true, secondsVisible: false, fixLeftEdge: true, fixRightEdge: true },
      rightPriceScale: { scaleMargins: { top: 0.1, bottom: 0.1 } },
      handleScroll: false,
      handleScale: false,
    });
    series.current = api.addSeries(AreaSeries, {
      lineColor: '#228be6',
      topColor: 'rgba(34, 139, 230, 0.3)',
      bottomColor: 'rgba(34, 139, 230, 0.02)',
      lineWidth: 2,
      priceFormat: { type: 'price', precision: 4, minMove: 0.0001 },
    });
    chart.current = api;
    return () => {
      series.current = null;
      chart.current = null;
      api.remove();
    };
  }, [scheme]);

  useEffect(() => {
    const s = series.current;
    if (!s) return;
    s.setData(points.map((p) => ({ time: (p.at / 1000) as UTCTimestamp, value: Number(p.nav) })));
    chart.current?.timeScale().fitContent();
    // The chart is rebuilt when the colour scheme changes: draw again then.
    void scheme;
  }, [points, scheme]);

  return <Box ref={box} h={height} w="100%" data-testid="etf-nav-chart" />;
}
