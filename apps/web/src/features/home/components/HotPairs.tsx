import { Num } from '@bourse/ui';
import { Badge, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { HOT_PAIRS_MAX } from '../../../config/app.ts';
import { type Ticker, useSocketStatus, useTickers } from '../../../lib/marketStore.ts';

/** Most-moving instruments first: the list a visitor scans for what is hot. */
function hottest(tickers: readonly Ticker[]): Ticker[] {
  const magnitude = (ticker: Ticker) => {
    const text = (ticker.change_pct ?? '').replace(/^[+-]/, '');
    return /^\d+(\.\d+)?$/.test(text) ? text : '0';
  };
  // Compare decimal strings by value without floats: integer part length, then lexically.
  const compare = (a: string, b: string) => {
    const [ai = '', af = ''] = a.split('.');
    const [bi = '', bf = ''] = b.split('.');
    const ia = ai.replace(/^0+(?=\d)/, '');
    const ib = bi.replace(/^0+(?=\d)/, '');
    if (ia.length !== ib.length) return ia.length - ib.length;
    if (ia !== ib) return ia < ib ? -1 : 1;
    const width = Math.max(af.length, bf.length);
    const fa = af.padEnd(width, '0');
    const fb = bf.padEnd(width, '0');
    return fa === fb ? 0 : fa < fb ? -1 : 1;
  };
  return [...tickers]
    .sort((a, b) => compare(magnitude(b), magnitude(a)) || a.symbol.localeCompare(b.symbol))
    .slice(0, HOT_PAIRS_MAX);
}

/** Hot pairs from the live market store; an honest empty state until the feed sends tickers. */
export function HotPairs() {
  const { t } = useTranslation();
  const tickers = useTickers();
  const status = useSocketStatus();
  const rows = hottest(tickers);

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} h="100%" data-testid="hot-pairs">
      <Group justify="space-between" mb="md">
        <Title order={2} size="h4">
          {t('home.hot.title')}
        </Title>
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
      </Group>
      {rows.length === 0 ? (
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
            {rows.map((ticker) => (
              <Table.Tr key={ticker.symbol} data-testid={`hot-pair-${ticker.symbol}`}>
                <Table.Td>
                  <Text fw={600} size="sm">
                    {ticker.symbol}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">
                  <Num value={ticker.last} size="sm" fw={500} />
                </Table.Td>
                <Table.Td ta="right">
                  <Num
                    value={ticker.change_pct}
                    percent
                    signed
                    trend="auto"
                    size="sm"
                    fw={600}
                    decimals={2}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}
