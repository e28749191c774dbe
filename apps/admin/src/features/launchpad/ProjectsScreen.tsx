import type { AdminLaunchpadProjectData } from '@bourse/protocol';
import { Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { Amount, DoneNote, ErrorNote } from '../../app/ui.tsx';
import { useLaunchpadProjects } from './api.ts';
import { type Acting, ActionButtons, ProjectActionDialog } from './ProjectActionDialog.tsx';
import { ProjectDrawer } from './ProjectDrawer.tsx';
import { ProjectFormModal } from './ProjectFormModal.tsx';
import { Coins, NoControl, NoPermission, ProjectStateBadge, useCanWrite, useRateText } from './parts.tsx';
import type { ProjectAction } from './projectForm.ts';

function ProjectRow(props: {
  project: AdminLaunchpadProjectData;
  canWrite: boolean;
  onOpen: () => void;
  onAction: (action: ProjectAction) => void;
}) {
  const { t } = useTranslation('adminLaunchpad');
  const lang = useLang();
  const rate = useRateText();
  const p = props.project;
  return (
    <Table.Tr data-testid="launchpad-project" data-project={p.project_id} data-state={p.state}>
      <Table.Td>
        <Text size="sm" fw={600}>
          {p.coin}
        </Text>
        <Text size="xs" c="dimmed">
          {p.project_id}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{p.names[lang]}</Text>
        <Text size="xs" c="dimmed">
          {p.issuer}
        </Text>
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <ProjectStateBadge state={p.state} />
      </Table.Td>
      <Table.Td>{t(`mode.${p.mode}`)}</Table.Td>
      <Table.Td>
        <Amount value={p.price} currency="USDT" />
      </Table.Td>
      <Table.Td>
        <Coins value={p.supply} />
      </Table.Td>
      <Table.Td data-testid="launchpad-project-progress">
        <Coins value={p.subscribed} />
        <Text size="xs" c="dimmed">
          {rate(p.progress)} · {t('projects.subscribers', { count: p.subscribers })}
        </Text>
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <Text size="xs">{formatTime(p.opens_at, lang)}</Text>
        <Text size="xs">{formatTime(p.closes_at, lang)}</Text>
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <Text size="xs">{formatTime(p.listing_at, lang)}</Text>
        <Text size="xs" c="dimmed">
          {t('projects.release', { date: formatTime(p.release_at, lang) })}
        </Text>
      </Table.Td>
      <Table.Td data-testid="launchpad-project-escrow">
        <Amount value={p.escrow} currency="USDT" />
      </Table.Td>
      <Table.Td>
        <Amount value={p.fees} currency="USDT" />
      </Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap">
          <Button
            size="compact-xs"
            variant="subtle"
            onClick={props.onOpen}
            data-testid="launchpad-project-open"
          >
            {t('common.details')}
          </Button>
          <ActionButtons project={p} canWrite={props.canWrite} onAction={props.onAction} />
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

function ProjectsTable(props: {
  items: AdminLaunchpadProjectData[];
  canWrite: boolean;
  onOpen: (id: string) => void;
  onAction: (acting: Acting) => void;
}) {
  const { t } = useTranslation('adminLaunchpad');
  const heads = [
    'coin',
    'name',
    'state',
    'mode',
    'price',
    'supply',
    'subscribed',
    'window',
    'listing',
  ] as const;
  return (
    <Table.ScrollContainer minWidth={1400}>
      <Table fz="sm" verticalSpacing={6} striped data-testid="launchpad-projects">
        <Table.Thead>
          <Table.Tr>
            {heads.map((h) => (
              <Table.Th key={h}>{t(`projects.${h}`)}</Table.Th>
            ))}
            <Table.Th>{t('projects.escrow')}</Table.Th>
            <Table.Th>{t('projects.fees')}</Table.Th>
            <Table.Th>{t('projects.actions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {props.items.map((p) => (
            <ProjectRow
              key={p.project_id}
              project={p}
              canWrite={props.canWrite}
              onOpen={() => props.onOpen(p.project_id)}
              onAction={(action) => props.onAction({ project: p, action })}
            />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * Launchpad projects, drafts included: figures, escrow and fees; a drawer with every field, the
 * counts and the published allocation; create a draft, announce, withdraw, pay the issuer — each
 * confirmed with a reason. Everything else runs on the clock.
 */
export default function ProjectsScreen() {
  const { t } = useTranslation('adminLaunchpad');
  const lang = useLang();
  const projects = useLaunchpadProjects();
  const canWrite = useCanWrite();
  const [creating, setCreating] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [shown, setShown] = useState<string | null>(null);
  const [acting, setActing] = useState<Acting | null>(null);
  const items = projects.data?.items ?? [];
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('projects.title')}</Title>
        <Group>
          <Button variant="default" size="xs" onClick={() => void projects.refetch()}>
            {t('common.refresh')}
          </Button>
          {canWrite ? (
            <Button size="xs" onClick={() => setCreating(true)} data-testid="launchpad-project-new">
              {t('projects.new')}
            </Button>
          ) : null}
        </Group>
      </Group>
      <Text size="sm" c="dimmed">
        {t('projects.intro')}
      </Text>
      <NoControl />
      {!canWrite ? <NoPermission /> : null}
      <DoneNote onClose={() => setNote(null)} data-testid="launchpad-note">
        {note}
      </DoneNote>
      <ErrorNote error={projects.error} />
      <Card withBorder>
        {items.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('common.empty')}
          </Text>
        ) : (
          <ProjectsTable items={items} canWrite={canWrite} onOpen={setShown} onAction={setActing} />
        )}
      </Card>
      <ProjectDrawer
        project={items.find((p) => p.project_id === shown) ?? null}
        canWrite={canWrite}
        onClose={() => setShown(null)}
        onAction={setActing}
      />
      <ProjectFormModal
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(project) => {
          setCreating(false);
          setNote(t('form.created', { coin: project.coin, id: project.project_id }));
        }}
      />
      <ProjectActionDialog
        acting={acting}
        onClose={() => setActing(null)}
        onDone={(project) =>
          setNote(
            t('actions.done', {
              coin: project.coin,
              name: project.names[lang],
              state: t(`state.${project.state}`),
            }),
          )
        }
      />
    </Stack>
  );
}
