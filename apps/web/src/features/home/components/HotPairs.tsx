import { Num } from '@bourse/ui';
import { Anchor, Badge, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { HOT_PAIRS_MAX } from '../../../config/app.ts';
import { useSocketStatus } from '../../../lib/marketStore.ts';
import { useMarketRows } from '../../../shared/market/api/getTickers.ts';
import { PriceStateBadge, SimBadge } from '../../../shared/market/components/badges.tsx';
import { PriceCell } from '../../../shared/market/components/PriceCell.tsx';
import { sortRows } from '../../../shared/market/logic.ts';

/**
 * Hot pairs: the catalogue's most popular crypto instruments (its `rank`) with live prices from the
 * tickers channel; an honest empty state until the feed has sent prices.
 */
export function HotPairs() {
  const { t } = useTranslation();
  const { t: tm } = useTranslation('market');
  const status = useSocketStatus();
  const navigate = useNavigate();
  const { rows } = useMarketRows();
  const hot = useMemo(
    () =>
      sortRows(
        rows.filter((r) => r.updated_at > 0 && r.class.startsWith('crypto')),
        { key: 'rank', dir: 'asc' },
      ).slice(0, HOT_PAIRS_MAX),
    [rows],
  );

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} h="100%" data-testid="hot-pairs">
      <Group justify="space-between" mb="md">
        <Group gap="xs">
          <Title order={2} size="h4">
            {t('home.hot.title')}
          </Title>
          {hot.some((r) => r.source === 'sim') ? <SimBadge size="xs" /> : null}
        </Group>
        <Group gap="sm">
          <Badge
            variant="dot"
            color={status === 'open' ? 'teal' : 'gray'}
            data-testid="feed-status"
            data-status={status}
          >
            {status === 'open'
              ? t('home.hot.live')
              : status === 'connecting'
                ? t('home.hot.connecting')
                : t('home.hot.offline')}
          </Badge>
          <Anchor component={Link} to="/market" size="sm">
            {tm('home.viewAll')}
          </Anchor>
        </Group>
      </Group>
      {hot.length === 0 ? (
        <Stack align="center" py="xl" gap="xs">
          <Text c="dimmed" ta="center" size="sm" maw={420} data-testid="hot-pairs-empty">
            {t('home.hot.empty')}
          </Text>
        </Stack>
      ) : (
        <Table highlightOnHover verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('home.hot.pair')}</Table.Th>
              <Table.Th ta="right">{t('home.hot.last')}</Table.Th>
              <Table.Th ta="right">{t('home.hot.change')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {hot.map((row) => (
              <Table.Tr
                key={row.symbol}
                data-testid={`hot-pair-${row.symbol}`}
                onClick={() => navigate(`/market?symbol=${encodeURIComponent(row.symbol)}`)}
                style={{ cursor: 'pointer' }}
              >
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Text fw={600} size="sm" translate="no">
                      {row.symbol}
                    </Text>
                    <PriceStateBadge state={row.state} />
                  </Group>
                </Table.Td>
                <Table.Td ta="right">
                  <PriceCell
                    value={row.last}
                    scale={row.price_scale}
                    move={row.move}
                    updatedAt={row.updated_at}
                    testId="hot-last"
                  />
                </Table.Td>
                <Table.Td ta="right">
                  <Num value={row.change_pct_24h} percent signed trend="auto" size="sm" fw={600} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}
