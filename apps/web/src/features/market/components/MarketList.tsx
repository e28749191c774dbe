import { ASSET_CLASSES } from '@bourse/protocol';
import { Num } from '@bourse/ui';
import {
  ActionIcon,
  Box,
  Button,
  Group,
  Loader,
  Paper,
  ScrollArea,
  SegmentedControl,
  Stack,
  Tabs,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useDeferredValue, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useMarketRows } from '../../../shared/market/api/getTickers.ts';
import { PriceStateBadge, SimBadge } from '../../../shared/market/components/badges.tsx';
import { PriceCell } from '../../../shared/market/components/PriceCell.tsx';
import {
  filterRows,
  type MarketRow,
  type MarketTab,
  type Sort,
  type SortKey,
  sortRows,
} from '../../../shared/market/logic.ts';
import { useInstrumentName } from '../../../shared/market/names.ts';
import { toggleFavourite, useFavourites } from '../favourites.ts';
import classes from '../market.module.css';

const TABS: readonly MarketTab[] = ['favourites', ...ASSET_CLASSES];
const SORT_KEYS: readonly SortKey[] = ['rank', 'price', 'change', 'volume'];

function Star({ on }: { on: boolean }) {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true">
      <path
        d="M12 3.5l2.6 5.3 5.9.9-4.25 4.1 1 5.8L12 16.9l-5.25 2.7 1-5.8L3.5 9.7l5.9-.9z"
        fill={on ? '#f59f00' : 'none'}
        stroke={on ? '#f59f00' : 'currentColor'}
        strokeWidth="1.6"
        strokeLinejoin="round"
      />
    </svg>
  );
}

const Row = memo(function Row({
  row,
  favourite,
  wide,
  onOpen,
}: {
  row: MarketRow;
  favourite: boolean;
  wide: boolean;
  onOpen: (symbol: string) => void;
}) {
  const { t } = useTranslation('market');
  const nameOf = useInstrumentName();
  const label = favourite ? t('favouriteRemove') : t('favouriteAdd');
  return (
    <Box
      className={wide ? classes.row : `${classes.row} ${classes.mobileRow}`}
      h="100%"
      onClick={() => onOpen(row.symbol)}
      data-testid="market-row"
      data-symbol={row.symbol}
      data-state={row.state}
      role="link"
    >
      <ActionIcon
        variant="subtle"
        color="gray"
        aria-label={label}
        title={label}
        data-testid="favourite-toggle"
        data-on={favourite}
        onClick={(event) => {
          event.stopPropagation();
          toggleFavourite(row.symbol);
        }}
      >
        <Star on={favourite} />
      </ActionIcon>
      <Stack gap={0} style={{ minWidth: 0 }}>
        <Group gap={6} wrap="nowrap">
          <Text fw={700} size="sm" translate="no" data-testid="row-symbol" truncate>
            {row.symbol}
          </Text>
          <PriceStateBadge state={row.state} />
        </Group>
        <Text size="xs" c="dimmed" truncate translate="no">
          {nameOf(row)}
        </Text>
      </Stack>
      <Box className={classes.right}>
        <PriceCell
          value={row.last}
          scale={row.price_scale}
          move={row.move}
          updatedAt={row.updated_at}
          testId="row-last"
        />
      </Box>
      <Box className={classes.right}>
        <Num
          value={row.change_pct_24h}
          percent
          signed
          trend="auto"
          size="sm"
          fw={600}
          data-testid="row-change"
        />
      </Box>
      {wide ? (
        <>
          <Box className={classes.right}>
            <Num value={row.high_24h} kind="price" scale={row.price_scale} size="sm" />
          </Box>
          <Box className={classes.right}>
            <Num value={row.low_24h} kind="price" scale={row.price_scale} size="sm" />
          </Box>
          <Box className={classes.right}>
            <Num value={row.volume_24h} size="sm" data-testid="row-volume" />
          </Box>
        </>
      ) : null}
    </Box>
  );
});

/**
 * The market list: a tab per asset class (and Favourites), search, sort by popularity, price, 24 h
 * change or 24 h volume either way, live prices. Rows are virtualized: 3,000 instruments render as the
 * few dozen on screen.
 */
export function MarketList({ onOpen }: { onOpen: (symbol: string) => void }) {
  const { t } = useTranslation('market');
  const nameOf = useInstrumentName();
  const wide = useMediaQuery('(min-width: 48em)', true, { getInitialValueInEffect: false }) ?? true;
  const [params, setParams] = useSearchParams();
  const tabParam = params.get('tab');
  const tab: MarketTab = (TABS as readonly string[]).includes(tabParam ?? '')
    ? (tabParam as MarketTab)
    : 'crypto_spot';
  const [search, setSearch] = useState('');
  const deferredSearch = useDeferredValue(search);
  const [sort, setSort] = useState<Sort>({ key: 'rank', dir: 'asc' });
  const favourites = useFavourites();
  const { rows, query } = useMarketRows();
  const simulated = rows.some((r) => r.source === 'sim');

  const shown = useMemo(() => {
    const found = filterRows(rows, { tab, search: deferredSearch, favourites, nameOf });
    // A search over every instrument shows the best matches first unless another sort is chosen.
    return deferredSearch.trim() && sort.key === 'rank' && sort.dir === 'asc' ? found : sortRows(found, sort);
  }, [rows, tab, deferredSearch, favourites, sort, nameOf]);

  const scroller = useRef<HTMLDivElement>(null);
  const rowHeight = wide ? 56 : 60;
  const virtual = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    overscan: 8,
    getItemKey: (index) => shown[index]?.symbol ?? index,
  });

  const chooseSort = (key: SortKey) => {
    setSort((current) =>
      current.key === key
        ? { key, dir: current.dir === 'asc' ? 'desc' : 'asc' }
        : { key, dir: key === 'rank' ? 'asc' : 'desc' },
    );
  };

  const emptyText =
    tab === 'favourites' && favourites.size === 0
      ? t('empty.favourites')
      : deferredSearch.trim()
        ? t('empty.search', { search: deferredSearch.trim() })
        : t('empty.class');

  return (
    <Stack gap="md" py={{ base: 'md', sm: 'xl' }} data-testid="market-page">
      <Group justify="space-between" align="center">
        <Group gap="sm">
          <Text component="h1" fz={{ base: 22, sm: 28 }} fw={700} m={0}>
            {t('title')}
          </Text>
          {simulated ? <SimBadge /> : null}
        </Group>
        <Text size="sm" c="dimmed" data-testid="market-count" data-count={shown.length}>
          {t('count', { count: shown.length })}
        </Text>
      </Group>

      <ScrollArea type="never">
        <Tabs
          value={tab}
          onChange={(value) => {
            const next = new URLSearchParams(params);
            next.set('tab', value ?? 'crypto_spot');
            setParams(next, { replace: true });
            virtual.scrollToOffset(0);
          }}
        >
          <Tabs.List style={{ flexWrap: 'nowrap' }}>
            {TABS.map((key) => (
              <Tabs.Tab key={key} value={key} data-testid={`market-tab-${key}`}>
                {t(`tabs.${key}`)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>
      </ScrollArea>

      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          placeholder={t('search')}
          aria-label={t('search')}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          maxLength={32}
          w={{ base: '100%', sm: 320 }}
          data-testid="market-search"
        />
        <Group gap={6} wrap="wrap">
          <Text size="sm" c="dimmed" visibleFrom="sm">
            {t('sortBy')}
          </Text>
          <SegmentedControl
            size="xs"
            value={sort.key}
            onChange={(value) => chooseSort(value as SortKey)}
            data={SORT_KEYS.map((key) => ({ value: key, label: t(`sort.${key}`) }))}
            data-testid="market-sort"
          />
          <Button
            size="compact-sm"
            variant="default"
            onClick={() => setSort((s) => ({ ...s, dir: s.dir === 'asc' ? 'desc' : 'asc' }))}
            data-testid="market-sort-dir"
            data-dir={sort.dir}
          >
            {sort.dir === 'asc' ? `↑ ${t('sort.asc')}` : `↓ ${t('sort.desc')}`}
          </Button>
        </Group>
      </Group>

      <Paper withBorder radius="md" style={{ overflow: 'hidden' }}>
        <Box
          className={
            wide ? `${classes.row} ${classes.head}` : `${classes.row} ${classes.head} ${classes.mobileRow}`
          }
          h={36}
        >
          <span />
          <UnstyledButton onClick={() => chooseSort('rank')} fz="xs" c="dimmed" fw={600} ta="left">
            {t('col.instrument')}
          </UnstyledButton>
          <UnstyledButton
            className={classes.right}
            onClick={() => chooseSort('price')}
            fz="xs"
            c="dimmed"
            fw={600}
          >
            {t('col.last')}
          </UnstyledButton>
          <UnstyledButton
            className={classes.right}
            onClick={() => chooseSort('change')}
            fz="xs"
            c="dimmed"
            fw={600}
          >
            {t('col.change')}
          </UnstyledButton>
          {wide ? (
            <>
              <span className={classes.right}>{t('col.high')}</span>
              <span className={classes.right}>{t('col.low')}</span>
              <UnstyledButton
                className={classes.right}
                onClick={() => chooseSort('volume')}
                fz="xs"
                c="dimmed"
                fw={600}
              >
                {t('col.volume')}
              </UnstyledButton>
            </>
          ) : null}
        </Box>
        {query.isPending ? (
          <Stack align="center" py={60} gap="sm">
            <Loader size="sm" />
            <Text size="sm" c="dimmed">
              {t('loading')}
            </Text>
          </Stack>
        ) : query.isError ? (
          <Stack align="center" py={60} gap="sm">
            <Text size="sm" c="dimmed">
              {t('loadFailed')}
            </Text>
            <Button variant="light" onClick={() => void query.refetch()}>
              {t('retry')}
            </Button>
          </Stack>
        ) : shown.length === 0 ? (
          <Text c="dimmed" ta="center" size="sm" py={60} px="md" data-testid="market-empty">
            {emptyText}
          </Text>
        ) : (
          <div
            ref={scroller}
            data-testid="market-scroller"
            style={{
              height: wide ? 'calc(100vh - 330px)' : 'calc(100dvh - 330px)',
              minHeight: 320,
              overflowY: 'auto',
            }}
          >
            <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
              {virtual.getVirtualItems().map((item) => {
                const row = shown[item.index] as MarketRow;
                return (
                  <div
                    key={item.key}
                    style={{
                      position: 'absolute',
                      top: 0,
                      left: 0,
                      right: 0,
                      height: item.size,
                      transform: `translateY(${item.start}px)`,
                    }}
                  >
                    <Row row={row} favourite={favourites.has(row.symbol)} wide={wide} onOpen={onOpen} />
                  </div>
                );
              })}
            </div>
          </div>
        )}
      </Paper>
    </Stack>
  );
}
