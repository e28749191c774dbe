import {
  type AdminContentData,
  CONTENT_KINDS,
  CONTENT_STATES,
  type ContentKind,
  type ContentState,
} from '@bourse/protocol';
import { Badge, Button, Group, Pagination, Select, Stack, Table, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { ErrorNote } from '../../app/ui.tsx';
import { KEYS, useArticles } from './api.ts';
import { EditorModal } from './EditorModal.tsx';
import { PublishDialog, UnpublishDialog } from './PublishDialog.tsx';

const PAGE_SIZE = 20;
const STATE_COLOR: Record<ContentState, string> = { draft: 'gray', scheduled: 'yellow', published: 'green' };

type Editing = { row: AdminContentData | null } | null;

function Row(props: {
  row: AdminContentData;
  onEdit: () => void;
  onPublish: () => void;
  onUnpublish: () => void;
}) {
  const { t } = useTranslation('adminContent');
  const lang = useLang();
  const { row } = props;
  return (
    <Table.Tr data-testid="content-row" data-id={row.id} data-state={row.state}>
      <Table.Td>
        <Text size="sm" fw={600}>
          {row.title[lang]}
        </Text>
        {row.demo ? (
          <Badge size="xs" variant="outline" color="gray">
            {t('demo')}
          </Badge>
        ) : null}
      </Table.Td>
      <Table.Td>{t(`kind.${row.kind}`)}</Table.Td>
      <Table.Td>{row.category_id ?? '—'}</Table.Td>
      <Table.Td>
        <Badge color={STATE_COLOR[row.state]} variant="light" data-testid="content-state">
          {t(`state.${row.state}`)}
        </Badge>
      </Table.Td>
      <Table.Td>{formatTime(row.published_at, lang)}</Table.Td>
      <Table.Td>{formatTime(row.updated_at, lang)}</Table.Td>
      <Table.Td>
        <Group gap={6} wrap="nowrap">
          <Button size="xs" variant="light" onClick={props.onEdit} data-testid="content-edit">
            {t('edit')}
          </Button>
          {row.state === 'draft' ? (
            <Button
              size="xs"
              variant="light"
              color="green"
              onClick={props.onPublish}
              data-testid="content-publish"
            >
              {t('publish.title')}
            </Button>
          ) : (
            <Button
              size="xs"
              variant="light"
              color="red"
              onClick={props.onUnpublish}
              data-testid="content-unpublish"
            >
              {t('unpublish.title')}
            </Button>
          )}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/** Every entry by kind and state; create, edit, publish (now or scheduled) and unpublish. */
export function ArticlesTab() {
  const { t } = useTranslation('adminContent');
  const client = useQueryClient();
  const [kind, setKind] = useState<ContentKind | null>(null);
  const [state, setState] = useState<ContentState | null>(null);
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Editing>(null);
  const [publishing, setPublishing] = useState<AdminContentData | null>(null);
  const [unpublishing, setUnpublishing] = useState<AdminContentData | null>(null);
  const list = useArticles({
    kind: kind ?? undefined,
    state: state ?? undefined,
    page,
    page_size: PAGE_SIZE,
  });
  const refresh = () => void client.invalidateQueries({ queryKey: KEYS.all });
  const items = list.data?.items ?? [];
  return (
    <Stack>
      <Group align="flex-end">
        <Select
          label={t('filter.kind')}
          placeholder={t('filter.all')}
          clearable
          value={kind}
          data={CONTENT_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }))}
          onChange={(v) => {
            setKind(v as ContentKind | null);
            setPage(1);
          }}
          data-testid="content-filter-kind"
        />
        <Select
          label={t('filter.state')}
          placeholder={t('filter.all')}
          clearable
          value={state}
          data={CONTENT_STATES.map((s) => ({ value: s, label: t(`state.${s}`) }))}
          onChange={(v) => {
            setState(v as ContentState | null);
            setPage(1);
          }}
          data-testid="content-filter-state"
        />
        <Button ml="auto" onClick={() => setEditing({ row: null })} data-testid="content-create">
          {t('create')}
        </Button>
      </Group>
      <ErrorNote error={list.error} />
      <Table.ScrollContainer minWidth={900}>
        <Table striped highlightOnHover data-testid="content-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('col.title')}</Table.Th>
              <Table.Th>{t('col.kind')}</Table.Th>
              <Table.Th>{t('col.category')}</Table.Th>
              <Table.Th>{t('col.state')}</Table.Th>
              <Table.Th>{t('col.publishedAt')}</Table.Th>
              <Table.Th>{t('col.updatedAt')}</Table.Th>
              <Table.Th>{t('col.actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((row) => (
              <Row
                key={row.id}
                row={row}
                onEdit={() => setEditing({ row })}
                onPublish={() => setPublishing(row)}
                onUnpublish={() => setUnpublishing(row)}
              />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {list.data && items.length === 0 ? (
        <Text c="dimmed" ta="center" py="lg" data-testid="content-empty">
          {t('empty')}
        </Text>
      ) : null}
      {list.data && list.data.total > PAGE_SIZE ? (
        <Pagination total={Math.ceil(list.data.total / PAGE_SIZE)} value={page} onChange={setPage} />
      ) : null}
      {editing ? (
        <EditorModal
          key={editing.row?.id ?? 'new'}
          row={editing.row}
          opened
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            refresh();
          }}
        />
      ) : null}
      <PublishDialog row={publishing} onClose={() => setPublishing(null)} onDone={refresh} />
      <UnpublishDialog row={unpublishing} onClose={() => setUnpublishing(null)} onDone={refresh} />
    </Stack>
  );
}
