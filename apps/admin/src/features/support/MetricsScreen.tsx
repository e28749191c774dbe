import { Paper, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorNote } from '../../app/ui.tsx';
import { useSupportMetrics } from './api.ts';

const PERIODS = [7, 30, 90] as const;

function Stat({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Paper withBorder p="sm" radius="md">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="lg" data-testid={testId} style={{ fontVariantNumeric: 'tabular-nums' }}>
        {value}
      </Text>
    </Paper>
  );
}

/** Median first-response and resolution times over a period (conversations started in it). */
export default function MetricsScreen() {
  const { t } = useTranslation('adminSupport');
  const [days, setDays] = useState<number>(30);
  const metrics = useSupportMetrics(days);
  const m = metrics.data;
  const minutes = (v: number | null | undefined) =>
    v === null || v === undefined ? t('metrics.none') : t('metrics.minutes', { value: v });
  return (
    <Stack gap="md" data-testid="support-metrics">
      <Title order={2}>{t('metrics.title')}</Title>
      <Select
        w={200}
        label={t('metrics.days')}
        data={PERIODS.map((d) => ({ value: String(d), label: String(d) }))}
        value={String(days)}
        allowDeselect={false}
        onChange={(v) => v && setDays(Number(v))}
        data-testid="support-metrics-days"
      />
      <ErrorNote error={metrics.error} />
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 5 }}>
        <Stat
          label={t('metrics.conversations')}
          value={String(m?.conversations ?? '—')}
          testId="support-metric-conversations"
        />
        <Stat
          label={t('metrics.answered')}
          value={String(m?.answered ?? '—')}
          testId="support-metric-answered"
        />
        <Stat
          label={t('metrics.resolved')}
          value={String(m?.resolved ?? '—')}
          testId="support-metric-resolved"
        />
        <Stat
          label={t('metrics.firstResponse')}
          value={minutes(m?.first_response_median_minutes)}
          testId="support-metric-first"
        />
        <Stat
          label={t('metrics.resolution')}
          value={minutes(m?.resolution_median_minutes)}
          testId="support-metric-resolution"
        />
      </SimpleGrid>
    </Stack>
  );
}
