import type { AdminAgreementsData, AdminAgreementVersionRow, AgreementKind } from '@bourse/protocol';
import { Badge, Button, Card, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { DoneNote, ErrorNote, Figure } from '../../app/ui.tsx';
import { KEYS, useAgreements } from './api.ts';
import { DraftModal } from './DraftModal.tsx';
import { PublishDialog } from './PublishDialog.tsx';
import { ViewModal } from './ViewModal.tsx';

type Kind = AdminAgreementsData['kinds'][number];
type Open =
  | { type: 'draft'; kind: AgreementKind; from: number | null; draftVersion: number | null }
  | { type: 'publish'; kind: AgreementKind; version: number }
  | { type: 'view'; kind: AgreementKind; version: number };

const STATE_COLORS: Record<AdminAgreementVersionRow['state'], string> = {
  draft: 'gray',
  current: 'green',
  scheduled: 'blue',
  superseded: 'dark',
};

function VersionRow(props: { row: AdminAgreementVersionRow; onOpen: (open: Open) => void }) {
  const { t } = useTranslation('adminAgreements');
  const lang = useLang();
  const { row } = props;
  return (
    <Table.Tr data-testid="agreement-version-row" data-kind={row.kind} data-version={row.version}>
      <Table.Td>
        <Figure>{row.version}</Figure>
      </Table.Td>
      <Table.Td>
        <Badge color={STATE_COLORS[row.state]} variant="light" data-testid="agreement-state">
          {t(`status.${row.state}`)}
        </Badge>
      </Table.Td>
      <Table.Td>{row.title_en}</Table.Td>
      <Table.Td>
        <Figure>{formatTime(row.effective_at, lang)}</Figure>
      </Table.Td>
      <Table.Td visibleFrom="md">
        <Figure>{formatTime(row.published_at, lang)}</Figure>
      </Table.Td>
      <Table.Td data-testid="agreement-acceptances">
        <Figure>{row.acceptances}</Figure>
      </Table.Td>
      <Table.Td>
        <Group gap={6} wrap="nowrap">
          <Button
            size="compact-xs"
            variant="subtle"
            onClick={() => props.onOpen({ type: 'view', kind: row.kind, version: row.version })}
          >
            {t('actions.view')}
          </Button>
          {row.state === 'draft' ? (
            <Button
              size="compact-xs"
              onClick={() => props.onOpen({ type: 'publish', kind: row.kind, version: row.version })}
              data-testid="agreement-publish"
            >
              {t('actions.publish')}
            </Button>
          ) : null}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

function KindCard({ kind, onOpen }: { kind: Kind; onOpen: (open: Open) => void }) {
  const { t } = useTranslation('adminAgreements');
  const draft = kind.versions.find((v) => v.state === 'draft') ?? null;
  return (
    <Card withBorder radius="md" p="md" data-testid="agreement-kind" data-kind={kind.kind}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Group gap="sm">
            <Title order={2} fz="lg">
              {t(`kinds.${kind.kind}`)}
            </Title>
            <Badge variant="outline" color={kind.current_version ? 'green' : 'gray'}>
              {kind.current_version ? t('currentVersion', { version: kind.current_version }) : t('noCurrent')}
            </Badge>
          </Group>
          <Button
            size="xs"
            variant="light"
            data-testid="agreement-new-draft"
            onClick={() =>
              onOpen({
                type: 'draft',
                kind: kind.kind,
                from: draft?.version ?? kind.current_version ?? kind.versions[0]?.version ?? null,
                draftVersion: draft?.version ?? null,
              })
            }
          >
            {draft ? t('actions.editDraft') : t('actions.newDraft')}
          </Button>
        </Group>
        {kind.versions.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="agreement-empty">
            {t('empty')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={640}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('table.version')}</Table.Th>
                  <Table.Th>{t('table.status')}</Table.Th>
                  <Table.Th>{t('table.title')}</Table.Th>
                  <Table.Th>{t('table.effective')}</Table.Th>
                  <Table.Th visibleFrom="md">{t('table.published')}</Table.Th>
                  <Table.Th>{t('table.acceptances')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {kind.versions.map((row) => (
                  <VersionRow key={row.version} row={row} onOpen={onOpen} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Card>
  );
}

/** /admin/agreements: every kind's versions with acceptance counts; drafting, previewing, publishing. */
export default function AgreementsScreen() {
  const { t } = useTranslation('adminAgreements');
  const list = useAgreements();
  const client = useQueryClient();
  const [open, setOpen] = useState<Open | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const refresh = (message: string) => {
    setOpen(null);
    setDone(message);
    void client.invalidateQueries({ queryKey: KEYS.list });
    void client.invalidateQueries({ queryKey: ['agreements', 'version'] });
  };
  return (
    <Stack data-testid="agreements-screen">
      <Title order={1} fz="h2">
        {t('title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('lead')}
      </Text>
      <DoneNote onClose={() => setDone(null)} data-testid="agreement-done">
        {done}
      </DoneNote>
      <ErrorNote error={list.error} />
      {list.error ? (
        <Group>
          <Button size="xs" variant="light" onClick={() => void list.refetch()}>
            {t('retry')}
          </Button>
        </Group>
      ) : null}
      {list.isPending ? (
        <Group justify="center" py="xl">
          <Loader size="sm" aria-label={t('loading')} />
        </Group>
      ) : null}
      {list.data?.kinds.map((kind) => (
        <KindCard key={kind.kind} kind={kind} onOpen={setOpen} />
      ))}
      {open?.type === 'draft' ? (
        <DraftModal
          kind={open.kind}
          from={open.from}
          draftVersion={open.draftVersion}
          onClose={() => setOpen(null)}
          onSaved={() => refresh(t('form.saved'))}
        />
      ) : null}
      {open?.type === 'publish' ? (
        <PublishDialog
          kind={open.kind}
          version={open.version}
          onClose={() => setOpen(null)}
          onPublished={() => refresh(t('publish.done', { version: open.version }))}
        />
      ) : null}
      {open?.type === 'view' ? (
        <ViewModal kind={open.kind} version={open.version} onClose={() => setOpen(null)} />
      ) : null}
    </Stack>
  );
}
