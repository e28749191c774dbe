import { Num } from '@bourse/ui';
import { Button, Group, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { InstrumentView } from '../../../shared/instrument/InstrumentView.tsx';
import { useMarketRows } from '../../../shared/market/api/getTickers.ts';
import { PriceStateBadge, SimBadge } from '../../../shared/market/components/badges.tsx';
import { PriceCell } from '../../../shared/market/components/PriceCell.tsx';
import { sortRows } from '../../../shared/market/logic.ts';
import { useInstrumentName } from '../../../shared/market/names.ts';
import { Sparkline } from './Sparkline.tsx';

const PAGE = 30;

/**
 * /ldcoin: the spec names the route only, so it is the crypto coin list (every crypto spot pair:
 * price, 24 h change and volume, a sparkline of the last 24 one-hour candles); `?symbol=` opens a
 * coin's instrument view. See SCREENS.md.
 */
export function CoinsPage() {
  const { t } = useTranslation('market');
  const nameOf = useInstrumentName();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { rows, query } = useMarketRows();
  const [shownCount, setShownCount] = useState(PAGE);
  const coins = useMemo(
    () =>
      sortRows(
        rows.filter((r) => r.class === 'crypto_spot'),
        { key: 'rank', dir: 'asc' },
      ),
    [rows],
  );
  const symbol = params.get('symbol');
  if (symbol)
    return <InstrumentView key={symbol} symbol={symbol} back={{ to: '/ldcoin', label: t('ldcoin.title') }} />;

  return (
    <Stack gap="md" py={{ base: 'md', sm: 'xl' }} data-testid="coins-page">
      <Group gap="sm">
        <Title order={1} fz={{ base: 22, sm: 28 }}>
          {t('ldcoin.title')}
        </Title>
        {coins.some((c) => c.source === 'sim') ? <SimBadge /> : null}
      </Group>
      <Text c="dimmed" size="sm">
        {t('ldcoin.intro')}
      </Text>
      <Paper withBorder radius="md" style={{ overflowX: 'auto' }}>
        {query.isPending ? (
          <Stack align="center" py={60}>
            <Loader size="sm" />
          </Stack>
        ) : (
          <Table highlightOnHover verticalSpacing="sm" miw={360}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('ldcoin.coin')}</Table.Th>
                <Table.Th ta="right">{t('col.last')}</Table.Th>
                <Table.Th ta="right">{t('col.change')}</Table.Th>
                <Table.Th ta="right" visibleFrom="sm">
                  {t('col.volume')}
                </Table.Th>
                <Table.Th ta="right" visibleFrom="sm">
                  {t('ldcoin.trend')}
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {coins.slice(0, shownCount).map((coin) => (
                <Table.Tr
                  key={coin.symbol}
                  onClick={() => navigate(`/ldcoin?symbol=${encodeURIComponent(coin.symbol)}`)}
                  style={{ cursor: 'pointer' }}
                  data-testid="coin-row"
                  data-symbol={coin.symbol}
                >
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <Text fw={700} size="sm" translate="no">
                        {coin.base}
                      </Text>
                      <PriceStateBadge state={coin.state} />
                    </Group>
                    <Text size="xs" c="dimmed" translate="no">
                      {nameOf(coin)}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right">
                    <PriceCell
                      value={coin.last}
                      scale={coin.price_scale}
                      move={coin.move}
                      updatedAt={coin.updated_at}
                    />
                  </Table.Td>
                  <Table.Td ta="right">
                    <Num value={coin.change_pct_24h} percent signed trend="auto" size="sm" fw={600} />
                  </Table.Td>
                  <Table.Td ta="right" visibleFrom="sm">
                    <Num value={coin.volume_24h} size="sm" />
                  </Table.Td>
                  <Table.Td visibleFrom="sm">
                    <Group justify="flex-end">
                      <Sparkline symbol={coin.symbol} change={coin.change_pct_24h} />
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Paper>
      {coins.length > shownCount ? (
        <Group justify="center">
          <Button variant="light" onClick={() => setShownCount((n) => n + PAGE)}>
            {t('content.loadMore')}
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}
