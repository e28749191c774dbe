import { Badge, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { ErrorNote, useAmountText } from '../../app/ui.tsx';
import { useAccrualRuns } from './api.ts';

/** The daily accrual runs with their totals per currency. Read only: nothing here changes an accrual. */
export default function AccrualsScreen() {
  const { t } = useTranslation('adminEarn');
  const lang = useLang();
  const amountText = useAmountText();
  const runs = useAccrualRuns();
  const items = runs.data?.items ?? [];
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('accruals.title')}</Title>
        <Button size="xs" variant="default" onClick={() => void runs.refetch()}>
          {t('common.refresh')}
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        {t('accruals.intro')}
      </Text>
      <ErrorNote error={runs.error} />
      <Card withBorder>
        {items.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('common.empty')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={900}>
            <Table fz="sm" verticalSpacing={6} striped data-testid="earn-accrual-runs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('accruals.cutoff')}</Table.Th>
                  <Table.Th>{t('accruals.orders')}</Table.Th>
                  <Table.Th>{t('accruals.total')}</Table.Th>
                  <Table.Th>{t('accruals.matured')}</Table.Th>
                  <Table.Th>{t('accruals.started')}</Table.Th>
                  <Table.Th>{t('accruals.finished')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((run) => (
                  <Table.Tr key={run.run_id} data-testid="earn-accrual-run" data-run={run.run_id}>
                    <Table.Td>{formatTime(run.cutoff_at, lang)}</Table.Td>
                    <Table.Td>{run.orders}</Table.Td>
                    <Table.Td>
                      {Object.entries(run.total).length === 0
                        ? '—'
                        : Object.entries(run.total)
                            .map(([currency, amount]) => amountText(amount, currency))
                            .join(' · ')}
                    </Table.Td>
                    <Table.Td>{run.matured}</Table.Td>
                    <Table.Td>{formatTime(run.started_at, lang)}</Table.Td>
                    <Table.Td>
                      {run.finished_at !== null ? (
                        formatTime(run.finished_at, lang)
                      ) : (
                        <Badge color="yellow" variant="light">
                          {t('accruals.running')}
                        </Badge>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
    </Stack>
  );
}
