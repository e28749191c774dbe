import type { AdminAnnouncementData } from '@bourse/protocol';
import { Badge, Button, Card, Group, Radio, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { DoneNote, ErrorNote, Figure, ReasonDialog } from '../../app/ui.tsx';
import { useAnnouncements, usePublishAnnouncement, useUnpublishAnnouncement } from './api.ts';
import { ComposeModal } from './ComposeModal.tsx';

type Shown = 'draft' | 'published' | 'scheduled' | 'unpublished';

/** A published announcement whose time has not come is "scheduled" (the browser's clock: a label only). */
export function shownState(a: AdminAnnouncementData, now: number): Shown {
  if (a.state === 'published' && a.publish_at !== null && a.publish_at > now) return 'scheduled';
  return a.state;
}

const COLOR: Record<Shown, string> = {
  draft: 'gray',
  published: 'green',
  scheduled: 'blue',
  unpublished: 'orange',
};

function Row(props: {
  a: AdminAnnouncementData;
  onPublish: () => void;
  onUnpublish: () => void;
  onEdit: () => void;
}) {
  const { t } = useTranslation('adminNotice');
  const lang = useLang();
  const { a } = props;
  const shown = shownState(a, Date.now());
  return (
    <Table.Tr data-testid="notice-row" data-id={a.id} data-state={shown}>
      <Table.Td>
        <Text size="sm" fw={600}>
          {a[`title_${lang}`]}
        </Text>
        <Text size="xs" c="dimmed">
          {a.id}
        </Text>
      </Table.Td>
      <Table.Td>
        <Badge color={COLOR[shown]} variant="light" data-testid="notice-state">
          {t(`state.${shown}`)}
        </Badge>
      </Table.Td>
      <Table.Td>
        <Figure>{formatTime(a.publish_at, lang)}</Figure>
      </Table.Td>
      <Table.Td>
        <Figure>{formatTime(a.created_at, lang)}</Figure>
      </Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          {shown === 'draft' || shown === 'scheduled' ? (
            <Button size="xs" variant="default" onClick={props.onEdit} data-testid="notice-edit">
              {t('edit.action')}
            </Button>
          ) : null}
          {a.state !== 'published' ? (
            <Button size="xs" onClick={props.onPublish} data-testid="notice-publish">
              {t('publish.action')}
            </Button>
          ) : (
            <Button
              size="xs"
              color="red"
              variant="light"
              onClick={props.onUnpublish}
              data-testid="notice-unpublish"
            >
              {t('unpublish.action')}
            </Button>
          )}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/** Publish now or at a time (the staff member's local time), with the reason the audit log keeps. */
function PublishDialog(props: {
  target: AdminAnnouncementData | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('adminNotice');
  const [when, setWhen] = useState<'now' | 'at'>('now');
  const [at, setAt] = useState('');
  const publish = usePublishAnnouncement();
  return (
    <ReasonDialog
      opened={props.target !== null}
      title={t('publish.title')}
      text={props.target?.title_en ?? ''}
      confirmLabel={t('publish.confirm')}
      onClose={props.onClose}
      onSubmit={async (reason) => {
        const publishAt = when === 'at' && at !== '' ? new Date(at).getTime() : null;
        await publish.mutateAsync({ id: props.target?.id ?? '', reason, publishAt });
        props.onDone();
      }}
    >
      <Radio.Group value={when} onChange={(v) => setWhen(v as 'now' | 'at')}>
        <Group>
          <Radio value="now" label={t('publish.now')} data-testid="notice-publish-now" />
          <Radio value="at" label={t('publish.at')} data-testid="notice-publish-at" />
        </Group>
      </Radio.Group>
      {when === 'at' ? (
        <TextInput
          type="datetime-local"
          label={t('publish.when')}
          value={at}
          onChange={(e) => setAt(e.currentTarget.value)}
          data-testid="notice-publish-when"
        />
      ) : null}
    </ReasonDialog>
  );
}

/** Announcements to every customer: list, compose in three languages with preview, publish (now or scheduled), unpublish. */
export default function NoticesScreen() {
  const { t } = useTranslation('adminNotice');
  const list = useAnnouncements();
  const unpublish = useUnpublishAnnouncement();
  const [composing, setComposing] = useState(false);
  const [publishing, setPublishing] = useState<AdminAnnouncementData | null>(null);
  const [taking, setTaking] = useState<AdminAnnouncementData | null>(null);
  const [editing, setEditing] = useState<AdminAnnouncementData | null>(null);
  const [done, setDone] = useState('');
  return (
    <Stack data-testid="notices-screen">
      <Group justify="space-between">
        <Title order={2}>{t('title')}</Title>
        <Button onClick={() => setComposing(true)} data-testid="notice-create">
          {t('create')}
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        {t('intro')}
      </Text>
      <DoneNote onClose={() => setDone('')} data-testid="notice-done">
        {done}
      </DoneNote>
      <ErrorNote error={list.error} />
      <Card withBorder padding={0}>
        <Table.ScrollContainer minWidth={800}>
          <Table striped data-testid="notices-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('columns.title')}</Table.Th>
                <Table.Th>{t('columns.state')}</Table.Th>
                <Table.Th>{t('columns.publishAt')}</Table.Th>
                <Table.Th>{t('columns.created')}</Table.Th>
                <Table.Th>{t('columns.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data?.items.map((a) => (
                <Row
                  key={a.id}
                  a={a}
                  onPublish={() => setPublishing(a)}
                  onUnpublish={() => setTaking(a)}
                  onEdit={() => setEditing(a)}
                />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {list.data && list.data.items.length === 0 ? (
          <Text c="dimmed" p="md" data-testid="notices-empty">
            {t('empty')}
          </Text>
        ) : null}
      </Card>
      <ComposeModal opened={composing} onClose={() => setComposing(false)} />
      {editing ? (
        <ComposeModal
          key={editing.id}
          opened
          editing={editing}
          onClose={() => {
            setEditing(null);
          }}
        />
      ) : null}
      <PublishDialog
        target={publishing}
        onClose={() => setPublishing(null)}
        onDone={() => setDone(t('done'))}
      />
      <ReasonDialog
        opened={taking !== null}
        title={t('unpublish.title')}
        text={taking?.title_en ?? ''}
        confirmLabel={t('unpublish.confirm')}
        danger
        onClose={() => setTaking(null)}
        onSubmit={async (reason) => {
          await unpublish.mutateAsync({ id: taking?.id ?? '', reason });
          setDone(t('done'));
        }}
      />
    </Stack>
  );
}
