import type { MarketMakerHealthData, MarketMakerHealthItem } from '@bourse/protocol';
import { Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api.ts';
import { ErrorNote, Figure } from '../../app/ui.tsx';
import { type Column, DataTable } from '../derivatives/shared.tsx';

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
  const columns: Column<MarketMakerHealthItem>[] = [
    { key: 'symbol', label: t('health.market'), render: (m) => <Text fw={600}>{m.symbol}</Text> },
    { key: 'book', label: t('health.book'), render: (m) => t(`health.books.${m.book}`) },
    {
      key: 'state',
      label: t('common.status'),
      render: (m) => {
        const state = stateOf(m);
        return (
          <Badge variant="light" color={COLORS[state]}>
            {t(`health.state.${state}`)}
          </Badge>
        );
      },
    },
    {
      key: 'age',
      label: t('health.lastQuote'),
      align: 'right',
      render: (m) => (
        <Figure>
          {m.last_quote_age_s === null
            ? t('health.never')
            : t('health.ageSeconds', { seconds: m.last_quote_age_s })}
        </Figure>
      ),
    },
    {
      key: 'errors',
      label: t('health.errorsLastHour'),
      align: 'right',
      render: (m) => <Figure>{m.errors_last_hour}</Figure>,
    },
    {
      key: 'error',
      label: t('health.lastError'),
      render: (m) => (
        <Text size="sm" c={m.last_error ? 'red' : 'dimmed'} style={{ wordBreak: 'break-word' }}>
          {m.last_error ?? '—'}
        </Text>
      ),
    },
  ];
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
          {data ? (
            <DataTable
              rows={data.markets}
              columns={columns}
              rowKey={(m) => `${m.book}:${m.symbol}`}
              testId="mm-health-table"
              rowTestId="mm-health-row"
              minWidth={640}
            />
          ) : null}
        </Stack>
      </Paper>
    </Stack>
  );
}
