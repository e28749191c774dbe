import type { SpotMarketData } from '@bourse/protocol';
import { Num } from '@bourse/ui';
import {
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Card,
  Group,
  Loader,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { type Ticker, useTickerMap } from '../../../lib/marketStore.ts';
import { useSpotMarkets } from '../../../shared/market/api/getSpotMarkets.ts';

const tradeLink = (symbol: string) => `/currencyTrade?symbol=${encodeURIComponent(symbol)}`;

function StatusBadge({ market }: { market: SpotMarketData }) {
  const { t } = useTranslation('trade');
  return market.status === 'enabled' ? (
    <Badge color="teal" variant="light" size="sm">
      {t('markets.enabled')}
    </Badge>
  ) : (
    <Badge color="orange" variant="light" size="sm" title={market.halt_reason ?? undefined}>
      {t('markets.halted')}
    </Badge>
  );
}

/** Spot markets with the live price, 24 h change and volume from the ticker store. */
export function SpotMarketsPage() {
  const { t } = useTranslation('trade');
  const navigate = useNavigate();
  const markets = useSpotMarkets();
  const tickers = useTickerMap();
  const [search, setSearch] = useState('');
  const term = useDeferredValue(
    search
      .trim()
      .toUpperCase()
      .replace(/[^A-Z0-9]/g, ''),
  );
  const rows = (markets.data ?? []).filter(
    (m) => term === '' || m.symbol.replace(/[^A-Z0-9]/g, '').includes(term),
  );
  const live = (m: SpotMarketData): Ticker | undefined => tickers.get(m.symbol);

  return (
    <Stack gap="md" py={{ base: 'md', sm: 'xl' }} data-testid="spot-markets-page">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Stack gap={2}>
          <Title order={1} fz={{ base: 22, sm: 28 }}>
            {t('markets.title')}
          </Title>
          <Text c="dimmed" size="sm">
            {t('markets.subtitle')}
          </Text>
        </Stack>
        <Group gap="sm">
          <TextInput
            placeholder={t('markets.search')}
            aria-label={t('markets.search')}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            w={{ base: 200, sm: 260 }}
            data-testid="spot-markets-search"
          />
          <Anchor component={Link} to="/currencyRecord" size="sm" data-testid="spot-records-link">
            {t('markets.records')}
          </Anchor>
        </Group>
      </Group>
      {markets.isPending ? (
        <Stack align="center" py="xl">
          <Loader size="sm" />
        </Stack>
      ) : markets.isError ? (
        <Alert color="red" variant="light">
          {t('common.failed')}
        </Alert>
      ) : rows.length === 0 ? (
        <Text c="dimmed" ta="center" py="xl">
          {t('markets.empty')}
        </Text>
      ) : (
        <>
          <Paper withBorder radius="md" visibleFrom="sm">
            <Table
              highlightOnHover
              verticalSpacing="sm"
              horizontalSpacing="md"
              data-testid="spot-markets-table"
            >
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('markets.pair')}</Table.Th>
                  <Table.Th ta="right">{t('markets.last')}</Table.Th>
                  <Table.Th ta="right">{t('markets.change')}</Table.Th>
                  <Table.Th ta="right">{t('markets.volume')}</Table.Th>
                  <Table.Th>{t('markets.status')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((m) => (
                  <Table.Tr
                    key={m.symbol}
                    style={{ cursor: 'pointer' }}
                    onClick={() => navigate(tradeLink(m.symbol))}
                    data-testid="spot-market-row"
                    data-symbol={m.symbol}
                  >
                    <Table.Td translate="no">
                      <Text fw={600}>
                        {m.base}
                        <Text span c="dimmed" fw={400}>
                          /{m.quote}
                        </Text>
                      </Text>
                    </Table.Td>
                    <Table.Td ta="right">
                      <Num
                        value={live(m)?.last}
                        kind="price"
                        scale={m.price_scale}
                        fw={600}
                        trend={live(m)?.move ?? 'none'}
                      />
                    </Table.Td>
                    <Table.Td ta="right">
                      <Num value={live(m)?.change_pct} percent signed trend="auto" />
                    </Table.Td>
                    <Table.Td ta="right">
                      <Num value={live(m)?.volume} suffix={` ${m.base}`} />
                    </Table.Td>
                    <Table.Td>
                      <StatusBadge market={m} />
                    </Table.Td>
                    <Table.Td ta="right">
                      <Button
                        component={Link}
                        to={tradeLink(m.symbol)}
                        size="compact-sm"
                        variant="light"
                        onClick={(e: React.MouseEvent) => e.stopPropagation()}
                        data-testid="spot-market-trade"
                      >
                        {t('markets.trade')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Paper>
          <Stack gap="xs" hiddenFrom="sm" data-testid="spot-markets-cards">
            {rows.map((m) => (
              <Card
                key={m.symbol}
                component={Link}
                to={tradeLink(m.symbol)}
                withBorder
                radius="md"
                padding="sm"
                data-testid="spot-market-card"
                data-symbol={m.symbol}
              >
                <Group justify="space-between" wrap="nowrap">
                  <Box>
                    <Text fw={600} translate="no">
                      {m.base}
                      <Text span c="dimmed" fw={400}>
                        /{m.quote}
                      </Text>
                    </Text>
                    <Num value={live(m)?.volume} size="xs" prefix={`${t('markets.volume')} `} />
                  </Box>
                  <Stack gap={2} align="flex-end">
                    <Num value={live(m)?.last} kind="price" scale={m.price_scale} fw={600} />
                    <Num value={live(m)?.change_pct} percent signed trend="auto" size="sm" />
                  </Stack>
                </Group>
                {m.status === 'halted' ? (
                  <Box mt={4}>
                    <StatusBadge market={m} />
                  </Box>
                ) : null}
              </Card>
            ))}
          </Stack>
        </>
      )}
    </Stack>
  );
}
