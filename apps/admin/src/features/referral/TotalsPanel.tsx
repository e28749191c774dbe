import { Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Amount, ErrorNote } from '../../app/ui.tsx';
import { useReferralTotals } from './api.ts';

function Lines({
  title,
  list,
  testId,
}: {
  title: string;
  list: { currency: string; amount: string; lines: number }[];
  testId: string;
}) {
  const { t } = useTranslation('adminReferral');
  return (
    <Paper withBorder p="sm" radius="md" data-testid={testId}>
      <Text size="xs" c="dimmed">
        {title}
      </Text>
      {list.length === 0 ? (
        <Text size="sm">{t('totals.none')}</Text>
      ) : (
        list.map((l) => (
          <Text key={l.currency} size="sm">
            <Amount value={l.amount} currency={l.currency} suffix /> · {t('totals.lines', { count: l.lines })}
          </Text>
        ))
      )}
    </Paper>
  );
}

/** What the programme paid and excluded per currency, open flags, inviters paid. */
export function TotalsPanel() {
  const { t } = useTranslation('adminReferral');
  const totals = useReferralTotals();
  const d = totals.data;
  return (
    <Stack gap="md" data-testid="referral-totals">
      <ErrorNote error={totals.error} />
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
        <Lines title={t('totals.paid')} list={d?.paid ?? []} testId="referral-totals-paid" />
        <Lines title={t('totals.excluded')} list={d?.excluded ?? []} testId="referral-totals-excluded" />
        <Paper withBorder p="sm" radius="md">
          <Text size="xs" c="dimmed">
            {t('totals.flagsOpen')}
          </Text>
          <Text fw={700} data-testid="referral-totals-flags">
            {d?.flags_open ?? '—'}
          </Text>
        </Paper>
        <Paper withBorder p="sm" radius="md">
          <Text size="xs" c="dimmed">
            {t('totals.inviters')}
          </Text>
          <Text fw={700} data-testid="referral-totals-inviters">
            {d?.inviters ?? '—'}
          </Text>
        </Paper>
      </SimpleGrid>
    </Stack>
  );
}
