import { Badge, Button, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api.ts';
import { formatTime, useLang } from '../../app/i18n.ts';
import { ErrorNote, Figure } from '../../app/ui.tsx';

type Summary = {
  ok: boolean;
  checkedAt: string;
  durationMs: number;
  entries: number;
  postings: number;
  accounts: number;
  totals: Array<{ book: string; currency: string; posted: string; balances: string; accounts: number }>;
  mismatches: Array<Record<string, unknown>>;
};
type Stored = {
  id: string;
  ok: boolean;
  report: Summary;
  actor_id: string | null;
  created_at: number;
} | null;

function ReportCard({ title, stored, testId }: { title: string; stored: Stored; testId: string }) {
  const { t } = useTranslation();
  const lang = useLang();
  return (
    <Card withBorder data-testid={testId}>
      <Group justify="space-between" mb="sm">
        <Title order={4}>{title}</Title>
        {stored ? (
          <Badge color={stored.ok ? 'green' : 'red'} size="lg" data-testid={`${testId}-status`}>
            {stored.ok ? t('ledger.ok') : t('ledger.mismatch')}
          </Badge>
        ) : null}
      </Group>
      {!stored ? (
        <Text c="dimmed" size="sm">
          {t('ledger.never')}
        </Text>
      ) : (
        <Stack>
          <SimpleGrid cols={{ base: 2, md: 5 }}>
            {(
              [
                ['ledger.checkedAt', formatTime(Date.parse(stored.report.checkedAt), lang)],
                ['ledger.entries', String(stored.report.entries)],
                ['ledger.postings', String(stored.report.postings)],
                ['ledger.accounts', String(stored.report.accounts)],
                ['ledger.duration', String(stored.report.durationMs)],
              ] as const
            ).map(([key, value]) => (
              <Stack gap={0} key={key}>
                <Text size="xs" c="dimmed">
                  {t(key)}
                </Text>
                <Figure>{value}</Figure>
              </Stack>
            ))}
          </SimpleGrid>
          {stored.report.totals.length > 0 ? (
            <Table.ScrollContainer minWidth={480}>
              <Table>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('ledger.book')}</Table.Th>
                    <Table.Th>{t('ledger.currency')}</Table.Th>
                    <Table.Th ta="right">{t('ledger.posted')}</Table.Th>
                    <Table.Th ta="right">{t('ledger.balances')}</Table.Th>
                    <Table.Th ta="right">{t('ledger.accounts')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {stored.report.totals.map((row) => (
                    <Table.Tr key={`${row.book}-${row.currency}`}>
                      <Table.Td>{row.book}</Table.Td>
                      <Table.Td>{row.currency}</Table.Td>
                      <Table.Td ta="right">
                        <Figure>{row.posted}</Figure>
                      </Table.Td>
                      <Table.Td ta="right">
                        <Figure>{row.balances}</Figure>
                      </Table.Td>
                      <Table.Td ta="right">
                        <Figure>{row.accounts}</Figure>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          ) : null}
          {stored.report.mismatches.length > 0 ? (
            <Stack gap={4}>
              <Text fw={600} c="red">
                {t('ledger.mismatches')}
              </Text>
              {stored.report.mismatches.map((m, i) => (
                <Text key={String(i)} size="xs" ff="monospace" c="red">
                  {JSON.stringify(m)}
                </Text>
              ))}
            </Stack>
          ) : null}
        </Stack>
      )}
    </Card>
  );
}

/** The ledger verification report: the last scheduled check, and a check on demand. */
export default function LedgerScreen() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const reports = useQuery({
    queryKey: ['getLedgerReport'],
    queryFn: () => api.get<{ scheduled: Stored; manual: Stored }>('getLedgerReport'),
  });
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('ledger.title')}</Title>
        <Button
          loading={busy}
          data-testid="ledger-run"
          onClick={async () => {
            setBusy(true);
            setError(null);
            try {
              await api.post('verifyLedger');
              await queryClient.invalidateQueries({ queryKey: ['getLedgerReport'] });
            } catch (e) {
              setError(e);
            } finally {
              setBusy(false);
            }
          }}
        >
          {t('ledger.run')}
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        {t('ledger.intro')}
      </Text>
      <ErrorNote error={error ?? reports.error} />
      {reports.data ? (
        <>
          <ReportCard title={t('ledger.manual')} stored={reports.data.manual} testId="ledger-manual" />
          <ReportCard
            title={t('ledger.scheduled')}
            stored={reports.data.scheduled}
            testId="ledger-scheduled"
          />
        </>
      ) : null}
    </Stack>
  );
}
