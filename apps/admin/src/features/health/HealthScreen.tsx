import type { MarketMakerHealthData, MarketMakerHealthItem } from '@bourse/protocol';
import { Badge, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api.ts';
import { ErrorNote, Figure } from '../../app/ui.tsx';

/** Quotes older than this (seconds) count as "not quoting": a few refresh rounds missed. */
const STALE_AFTER_S = 60;

function stateOf(m: MarketMakerHealthItem): 'ok' | 'stale' | 'failing' {
  if (m.errors_last_hour > 0 && (m.last_quote_age_s === null || m.last_quote_age_s > STALE_AFTER_S))
    return 'failing';
  if (m.last_quote_age_s === null || m.last_quote_age_s > STALE_AFTER_S) return 'stale';
  return 'ok';
}

const COLORS = { ok: 'green', stale: 'yellow', failing: 'red' } as const;

/** System health: the market maker per market and book (GET admin/marketMakerHealth, risk.read). */
export default function HealthScreen() {
  const { t } = useTranslation();
  const health = useQuery({
    queryKey: ['marketMakerHealth'],
    queryFn: () => api.get<MarketMakerHealthData>('marketMakerHealth'),
    refetchInterval: 10_000,
  });
  const data = health.data;
  return (
    <Stack>
      <Title order={2}>{t('health.title')}</Title>
      <ErrorNote error={health.error} />
      <Paper withBorder p="md" data-testid="mm-health">
        <Stack gap="sm">
          <Group justify="space-between">
            <Title order={3}>{t('health.mmTitle')}</Title>
            {data ? (
              <Badge variant="light" color={data.enabled ? 'green' : 'gray'}>
                {data.enabled ? t('health.enabled') : t('health.disabled')}
              </Badge>
            ) : null}
          </Group>
          <Text size="sm" c="dimmed">
            {t('health.mmIntro')}
          </Text>
          {data && data.markets.length === 0 ? <Text c="dimmed">{t('common.empty')}</Text> : null}
          {data && data.markets.length > 0 ? (
            <Table.ScrollContainer minWidth={640}>
              <Table striped data-testid="mm-health-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('health.market')}</Table.Th>
                    <Table.Th>{t('health.book')}</Table.Th>
                    <Table.Th>{t('common.status')}</Table.Th>
                    <Table.Th ta="right">{t('health.lastQuote')}</Table.Th>
                    <Table.Th ta="right">{t('health.errorsLastHour')}</Table.Th>
                    <Table.Th>{t('health.lastError')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.markets.map((m) => {
                    const state = stateOf(m);
                    return (
                      <Table.Tr key={`${m.book}:${m.symbol}`} data-testid="mm-health-row">
                        <Table.Td>{m.symbol}</Table.Td>
                        <Table.Td>{t(`health.books.${m.book}`)}</Table.Td>
                        <Table.Td>
                          <Badge variant="light" color={COLORS[state]}>
                            {t(`health.state.${state}`)}
                          </Badge>
                        </Table.Td>
                        <Table.Td ta="right">
                          <Figure>
                            {m.last_quote_age_s === null
                              ? t('health.never')
                              : t('health.ageSeconds', { seconds: m.last_quote_age_s })}
                          </Figure>
                        </Table.Td>
                        <Table.Td ta="right">
                          <Figure>{m.errors_last_hour}</Figure>
                        </Table.Td>
                        <Table.Td>
                          <Text
                            size="sm"
                            c={m.last_error ? 'red' : 'dimmed'}
                            style={{ wordBreak: 'break-word' }}
                          >
                            {m.last_error ?? '—'}
                          </Text>
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          ) : null}
        </Stack>
      </Paper>
    </Stack>
  );
}
