import type { AdminLaunchpadProjectData, AdminLaunchpadRunData } from '@bourse/protocol';
import { Badge, Button, Card, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { formatTime, useLang } from '../../app/i18n.ts';
import { Amount, ErrorNote, Figure } from '../../app/ui.tsx';
import { useLaunchpadProjects, useLaunchpadRuns } from './api.ts';
import { Coins, Lots, NoControl, ProjectStateBadge, runCurrency } from './parts.tsx';

const KIND_COLORS: Record<AdminLaunchpadRunData['kind'], string> = {
  review: 'yellow',
  allocation: 'teal',
  refund: 'red',
  release: 'blue',
};

function RunRow({ run, coin }: { run: AdminLaunchpadRunData; coin: string }) {
  const { t } = useTranslation('adminLaunchpad');
  const lang = useLang();
  const currency = runCurrency(run.kind, coin);
  return (
    <Table.Tr data-testid="launchpad-run" data-run={run.run_id} data-kind={run.kind}>
      <Table.Td>
        <Badge color={KIND_COLORS[run.kind]} variant="light" miw="max-content">
          {t(`runKind.${run.kind}`)}
        </Badge>
        <Text size="xs" c="dimmed">
          {run.run_id}
        </Text>
      </Table.Td>
      <Table.Td>
        <Figure>{run.subscriptions}</Figure>
      </Table.Td>
      <Table.Td>
        <Lots value={run.lots} />
      </Table.Td>
      <Table.Td data-testid="launchpad-run-amount">
        {currency === 'USDT' ? (
          <Amount value={run.amount} currency="USDT" suffix />
        ) : (
          <Coins value={run.amount} coin={currency} />
        )}
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTime(run.started_at, lang)}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        {run.finished_at !== null ? (
          formatTime(run.finished_at, lang)
        ) : (
          <Badge color="yellow" variant="light">
            {t('common.running')}
          </Badge>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

function RunsTable({ project }: { project: AdminLaunchpadProjectData }) {
  const { t } = useTranslation('adminLaunchpad');
  const runs = useLaunchpadRuns(project.project_id);
  const items = runs.data?.items ?? [];
  return (
    <Stack>
      <Group justify="space-between">
        <Group gap="xs">
          <Text fw={600}>{project.coin}</Text>
          <ProjectStateBadge state={project.state} />
        </Group>
        <Button size="xs" variant="default" onClick={() => void runs.refetch()}>
          {t('common.refresh')}
        </Button>
      </Group>
      <ErrorNote error={runs.error} />
      <Card withBorder>
        {items.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="launchpad-runs-empty">
            {t('runs.none')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={900}>
            <Table fz="sm" verticalSpacing={6} striped data-testid="launchpad-runs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('runs.kind')}</Table.Th>
                  <Table.Th>{t('runs.subscriptions')}</Table.Th>
                  <Table.Th>{t('runs.lots')}</Table.Th>
                  <Table.Th>{t('runs.amount')}</Table.Th>
                  <Table.Th>{t('runs.started')}</Table.Th>
                  <Table.Th>{t('runs.finished')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((run) => (
                  <RunRow key={run.run_id} run={run} coin={project.coin} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
    </Stack>
  );
}

/** The launchpad job's runs over one project (review, allocation, refunds, releases). Read only. */
export default function RunsScreen() {
  const { t } = useTranslation('adminLaunchpad');
  const lang = useLang();
  const [params] = useSearchParams();
  const projects = useLaunchpadProjects();
  const [chosen, setChosen] = useState<string | null>(params.get('project'));
  const items = projects.data?.items ?? [];
  const project = items.find((p) => p.project_id === chosen) ?? null;
  return (
    <Stack>
      <Title order={2}>{t('runs.title')}</Title>
      <Text size="sm" c="dimmed">
        {t('runs.intro')}
      </Text>
      <NoControl />
      <ErrorNote error={projects.error} />
      <Select
        label={t('runs.project')}
        placeholder={t('runs.choose')}
        searchable
        data={items.map((p) => ({ value: p.project_id, label: `${p.coin} · ${p.names[lang]}` }))}
        value={chosen}
        onChange={setChosen}
        maw={420}
        data-testid="launchpad-runs-project"
      />
      {project ? <RunsTable project={project} /> : null}
    </Stack>
  );
}
