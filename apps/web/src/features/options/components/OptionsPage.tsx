import type { OptionInstrumentData, OptionOrderData } from '@bourse/protocol';
import { Num } from '@bourse/ui';
import { Alert, Anchor, Badge, Grid, Group, Loader, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useInfo } from '../../../api/info.ts';
import { TradeSwitch } from '../../../components/TradeSwitch.tsx';
import { useTicker } from '../../../lib/marketStore.ts';
import { useToken } from '../../../lib/session.ts';
import { KlineChart } from '../../../shared/chart/KlineChart.tsx';
import { HoursText } from '../../../shared/instrument/InstrumentPanel.tsx';
import { useInstrument } from '../../../shared/market/api/getInstruments.ts';
import { useOptionInstruments } from '../../../shared/market/api/getOptions.ts';
import { invalidateOptions } from '../api/buyOption.ts';
import { useJurisdiction } from '../api/getJurisdiction.ts';
import { useOptionOrders } from '../api/getOptionOrders.ts';
import { useServerNow } from '../hooks/useServerNow.ts';
import { pickInstrument } from '../logic.ts';
import { HistoryTable } from './HistoryTable.tsx';
import { OpenOptions, ResultCard, SettlementWatcher } from './OpenOptions.tsx';
import { OrderPanel } from './OrderPanel.tsx';

const WIDE = '(min-width: 75em)';
const OPEN_REFRESH_MS = 5_000;
const HISTORY_ROWS = 10;
const RESULTS_SHOWN = 3;

/** Live price, 24 h change, open/closed and the trading hours of the chosen instrument. */
function Header({ instrument, demo }: { instrument: OptionInstrumentData; demo: boolean }) {
  const { t } = useTranslation('options');
  const ticker = useTicker(instrument.symbol);
  const state = !instrument.enabled ? 'paused' : instrument.open ? 'open' : 'closed';
  return (
    <Group gap="xl" wrap="wrap" align="flex-end" data-testid="option-header" style={{ rowGap: 8 }}>
      <Stack gap={0}>
        <Text size="xs" c="dimmed">
          {t('page.last')}
        </Text>
        <Num
          value={ticker?.last}
          size="xl"
          fw={700}
          trend={ticker?.move ?? 'none'}
          data-testid="option-last"
          data-value={ticker?.last ?? ''}
        />
      </Stack>
      <Stack gap={0}>
        <Text size="xs" c="dimmed">
          {t('page.change')}
        </Text>
        <Num value={ticker?.change_pct} percent signed trend="auto" size="sm" fw={600} />
      </Stack>
      <Badge
        color={state === 'open' ? 'teal' : state === 'paused' ? 'orange' : 'gray'}
        variant="light"
        data-testid="option-market-state"
        data-state={state}
      >
        {t(`page.${state}`)}
      </Badge>
      <Stack gap={0}>
        <Text size="xs" c="dimmed">
          {t('page.hours')}
        </Text>
        <HoursText hours={instrument.trading_hours} />
      </Stack>
      {demo ? (
        <Badge color="orange" variant="light" data-testid="demo-book">
          {t('page.demoBook')}
        </Badge>
      ) : null}
    </Group>
  );
}

/**
 * The customer's options: open ones counting down, those expiring polled until settled (the result
 * is shown prominently), and the settled history.
 */
function useMyOptions(loggedIn: boolean) {
  const client = useQueryClient();
  const open = useOptionOrders({ status: 'open', page: 1, page_size: 50 }, { refetchMs: OPEN_REFRESH_MS });
  const history = useOptionOrders({ status: 'settled', page: 1, page_size: HISTORY_ROWS });
  const openItems = loggedIn ? open.data?.items : undefined;
  const now = useServerNow((openItems?.length ?? 0) > 0);
  // Expired options being polled, kept apart from the open list (which may drop one before the poll sees it settled).
  const [settling, setSettling] = useState<string[]>([]);
  const [results, setResults] = useState<OptionOrderData[]>([]);

  useEffect(() => {
    const due = (openItems ?? [])
      .filter((o) => o.expires_at <= now)
      .map((o) => o.order_id)
      .filter((id) => !settling.includes(id) && !results.some((r) => r.order_id === id));
    if (due.length > 0) setSettling((prev) => [...prev, ...due]);
  }, [openItems, now, settling, results]);

  const onSettled = useCallback(
    (order: OptionOrderData) => {
      setSettling((prev) => prev.filter((id) => id !== order.order_id));
      setResults((prev) =>
        [order, ...prev.filter((r) => r.order_id !== order.order_id)].slice(0, RESULTS_SHOWN),
      );
      void invalidateOptions(client);
    },
    [client],
  );
  const dismiss = (orderId: string) => setResults((prev) => prev.filter((r) => r.order_id !== orderId));
  const watchers = settling.map((id) => <SettlementWatcher key={id} orderId={id} onSettled={onSettled} />);
  return { open, openItems, history, now, results, dismiss, watchers };
}

function Results({ results, dismiss }: { results: OptionOrderData[]; dismiss: (id: string) => void }) {
  if (results.length === 0) return null;
  return (
    <Stack gap="sm" data-testid="option-results">
      {results.map((r) => (
        <ResultCard key={r.order_id} order={r} onDismiss={() => dismiss(r.order_id)} />
      ))}
    </Stack>
  );
}

function TradeBody({
  instrument,
  loggedIn,
  permitted,
}: {
  instrument: OptionInstrumentData | undefined;
  loggedIn: boolean;
  permitted: boolean;
}) {
  const { t } = useTranslation('options');
  const wide = useMediaQuery(WIDE, window.matchMedia(WIDE).matches, { getInitialValueInEffect: false });
  const mine = useMyOptions(loggedIn);
  const spec = useInstrument(instrument?.symbol ?? null);
  const openCount = mine.openItems?.length ?? 0;
  const scale = spec.data?.price_scale ?? 2;

  const chart = instrument ? (
    <KlineChart
      key={`chart-${instrument.symbol}`}
      symbol={instrument.symbol}
      priceScale={scale}
      height={wide ? 440 : 260}
    />
  ) : null;
  const form =
    permitted && instrument ? (
      <OrderPanel key={`form-${instrument.symbol}`} instrument={instrument} loggedIn={loggedIn} />
    ) : null;
  const open = (
    <OpenOptions items={mine.openItems} now={mine.now} loggedIn={loggedIn} columns={wide ? 2 : 1} />
  );
  const history = (
    <HistoryTable items={mine.history.data?.items} loading={mine.history.isPending} compact={!wide} />
  );
  const recordsLink = (
    <Anchor component={Link} to="/optionRecord" size="sm" data-testid="option-records-link">
      {t('page.records')}
    </Anchor>
  );

  if (wide) {
    return (
      <Stack gap="md">
        {mine.watchers}
        <Grid gap="md">
          <Grid.Col span={form ? 8 : 12}>
            <Stack gap="md">
              {form ? null : <Results results={mine.results} dismiss={mine.dismiss} />}
              {chart}
              <Paper withBorder radius="md" p="sm" data-testid="open-options-panel">
                <Group justify="space-between" mb="sm">
                  <Title order={2} fz="md">
                    {t('open.title')}
                    {loggedIn ? ` (${openCount})` : ''}
                  </Title>
                  {recordsLink}
                </Group>
                {open}
              </Paper>
            </Stack>
          </Grid.Col>
          {form ? (
            <Grid.Col span={4}>
              <Stack gap="md">
                <Results results={mine.results} dismiss={mine.dismiss} />
                {form}
              </Stack>
            </Grid.Col>
          ) : null}
        </Grid>
        <Paper withBorder radius="md" p="sm" data-testid="option-history-panel">
          <Title order={2} fz="md" mb="sm">
            {t('history.title')}
          </Title>
          {history}
        </Paper>
      </Stack>
    );
  }
  // Phone: results and the countdowns first, then the form, the chart and the history.
  return (
    <Stack gap="md">
      {mine.watchers}
      <Results results={mine.results} dismiss={mine.dismiss} />
      {openCount > 0 ? (
        <Stack gap="xs">
          <Title order={2} fz="md">
            {t('open.title')} ({openCount})
          </Title>
          {open}
        </Stack>
      ) : null}
      {form}
      {chart}
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={2} fz="md">
            {t('history.title')}
          </Title>
          {recordsLink}
        </Group>
        {history}
      </Stack>
    </Stack>
  );
}

/**
 * /options: up/down options. Instrument picker (`?symbol=`, default the first open one), live price
 * and chart, open/closed with the hours; the order panel; open options with their countdowns and
 * the result when each settles; the history. When the jurisdiction profile turns options off, the
 * screen says so and offers no order form.
 */
export function OptionsPage() {
  const { t } = useTranslation('options');
  const [params, setParams] = useSearchParams();
  const token = useToken();
  const info = useInfo();
  const jurisdiction = useJurisdiction();
  const instruments = useOptionInstruments();
  const list = instruments.data ?? [];
  const wanted = params.get('symbol');
  const instrument = pickInstrument(list, wanted);
  const demo = token !== null && info.data?.is_demo === 1;
  const loggedIn = token !== null;

  if (jurisdiction.isPending || instruments.isPending) {
    return (
      <Stack align="center" py={80}>
        <Loader size="sm" />
      </Stack>
    );
  }
  const permitted = jurisdiction.data?.active.options_enabled !== false;
  const failed = jurisdiction.isError || instruments.isError;

  const picker = (
    <Select
      aria-label={t('page.pick')}
      placeholder={t('page.pickPlaceholder')}
      data={list.map((i) => ({ value: i.symbol, label: i.symbol }))}
      value={instrument?.symbol ?? null}
      searchable
      allowDeselect={false}
      w={{ base: 160, xs: 220 }}
      translate="no"
      onChange={(value) => {
        if (!value) return;
        const next = new URLSearchParams(params);
        next.set('symbol', value);
        setParams(next, { replace: true });
      }}
      data-testid="option-picker"
    />
  );

  return (
    <Stack
      gap="md"
      py={{ base: 'sm', sm: 'lg' }}
      data-testid="options-page"
      data-symbol={instrument?.symbol ?? ''}
      data-permitted={permitted}
    >
      <TradeSwitch />
      <Group gap="lg" align="center" wrap="wrap" style={{ rowGap: 8 }}>
        <Stack gap={0}>
          <Title order={1} fz={{ base: 20, sm: 26 }}>
            {t('page.title')}
          </Title>
          <Text size="sm" c="dimmed" visibleFrom="sm">
            {t('page.lead')}
          </Text>
        </Stack>
        {permitted && list.length > 0 ? picker : null}
        {permitted && instrument ? <Header instrument={instrument} demo={demo} /> : null}
      </Group>
      {failed ? (
        <Alert color="red" variant="light" data-testid="options-failed">
          {t('page.failed')}
        </Alert>
      ) : !permitted ? (
        <Alert
          color="orange"
          variant="light"
          data-testid="options-not-permitted"
          title={t('page.notPermitted')}
        >
          {t('page.notPermittedHint')}
        </Alert>
      ) : list.length === 0 ? (
        <Text c="dimmed" data-testid="options-none">
          {t('page.none')}
        </Text>
      ) : !instrument ? (
        <Text c="dimmed" data-testid="options-not-found">
          {t('page.notFound', { symbol: wanted ?? '' })}
        </Text>
      ) : null}
      {failed ? null : (
        <TradeBody
          instrument={permitted ? instrument : undefined}
          loggedIn={loggedIn}
          permitted={permitted}
        />
      )}
    </Stack>
  );
}
