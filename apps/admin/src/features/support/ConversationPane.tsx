import {
  type AdminSupportCannedData,
  type AdminSupportDetailData,
  type AdminSupportMessageData,
  SUPPORT_LIMITS,
  SUPPORT_STATUSES,
  type SupportStatus,
} from '@bourse/protocol';
import {
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  ScrollArea,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { ErrorNote } from '../../app/ui.tsx';
import { useAssign, useCanned, useNote, useReply, useSetStatus, useSupportConversation } from './api.ts';

const BG = { customer: 'gray.0', staff: 'blue.0', note: 'yellow.1' } as const;

function Message({ m }: { m: AdminSupportMessageData }) {
  const { t } = useTranslation('adminSupport');
  const lang = useLang();
  const who =
    m.from === 'customer'
      ? t('conversation.customer')
      : t('conversation.staff', { name: m.staff?.name ?? m.staff_id ?? '', code: m.staff?.code ?? '—' });
  return (
    <Paper
      p="xs"
      radius="md"
      bg={BG[m.from]}
      data-testid="support-admin-message"
      data-from={m.from}
      data-seq={m.seq}
    >
      <Text size="xs" c="dimmed">
        {who} · {formatTime(m.at, lang)}
        {m.from === 'note' ? ` · ${t('conversation.noteTag')}` : ''}
        {m.out_of_hours ? ` · ${t('conversation.ticket')}` : ''}
      </Text>
      {m.body ? (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {m.body}
        </Text>
      ) : null}
      {m.url ? (
        <Anchor href={m.url} target="_blank" rel="noreferrer" size="xs" data-testid="support-admin-file">
          {t('conversation.attachment')}
        </Anchor>
      ) : null}
    </Paper>
  );
}

function CannedPicker({
  canned,
  lang,
  onPick,
}: {
  canned: AdminSupportCannedData[];
  lang: 'en' | 'zh' | 'ft';
  onPick: (text: string) => void;
}) {
  const { t } = useTranslation('adminSupport');
  return (
    <Select
      label={t('conversation.canned')}
      description={t('conversation.cannedHint', { lang: t(`lang.${lang}`) })}
      data={canned.map((c) => ({ value: c.id, label: c.title }))}
      value={null}
      onChange={(id) => {
        const c = canned.find((x) => x.id === id);
        if (c) onPick(lang === 'zh' ? c.body_zh : lang === 'ft' ? c.body_ft : c.body_en);
      }}
      data-testid="support-canned-pick"
      clearable
    />
  );
}

function Actions({ c, canWrite }: { c: AdminSupportDetailData; canWrite: boolean }) {
  const { t } = useTranslation('adminSupport');
  const assign = useAssign();
  const status = useSetStatus();
  const [assignee, setAssignee] = useState('');
  if (!canWrite) return null;
  return (
    <Group align="flex-end" wrap="wrap">
      <Button size="xs" onClick={() => assign.mutate({ id: c.id })} data-testid="support-take">
        {t('conversation.take')}
      </Button>
      <TextInput
        size="xs"
        label={t('conversation.assign')}
        value={assignee}
        onChange={(e) => setAssignee(e.currentTarget.value)}
        data-testid="support-assign-input"
      />
      <Button
        size="xs"
        variant="light"
        disabled={assignee.trim() === ''}
        onClick={() => assign.mutate({ id: c.id, staff_id: assignee.trim() })}
        data-testid="support-assign"
      >
        {t('conversation.assignButton')}
      </Button>
      <Select
        size="xs"
        label={t('conversation.status')}
        data={SUPPORT_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
        value={c.status}
        allowDeselect={false}
        w={300}
        comboboxProps={{ width: 'target', withinPortal: true }}
        onChange={(s) => s && s !== c.status && status.mutate({ id: c.id, status: s as SupportStatus })}
        data-testid="support-set-status"
      />
      <ErrorNote error={assign.error ?? status.error} />
    </Group>
  );
}

function Composer({ c }: { c: AdminSupportDetailData }) {
  const { t } = useTranslation('adminSupport');
  const canned = useCanned();
  const reply = useReply();
  const note = useNote();
  const [body, setBody] = useState('');
  const [noteBody, setNoteBody] = useState('');
  return (
    <Stack gap="xs">
      <CannedPicker
        canned={canned.data ?? []}
        lang={c.customer_lang}
        onPick={(text) => setBody((b) => (b ? `${b}\n${text}` : text))}
      />
      <Textarea
        label={t('conversation.reply')}
        value={body}
        maxLength={SUPPORT_LIMITS.messageMax}
        rows={3}
        onChange={(e) => setBody(e.currentTarget.value)}
        data-testid="support-reply-input"
      />
      <Group justify="flex-end">
        <Button
          disabled={body.trim() === ''}
          loading={reply.isPending}
          onClick={() => reply.mutate({ id: c.id, body: body.trim() }, { onSuccess: () => setBody('') })}
          data-testid="support-reply"
        >
          {t('conversation.send')}
        </Button>
      </Group>
      <Textarea
        label={t('conversation.note')}
        description={t('conversation.noteTag')}
        value={noteBody}
        maxLength={SUPPORT_LIMITS.noteMax}
        rows={2}
        onChange={(e) => setNoteBody(e.currentTarget.value)}
        data-testid="support-note-input"
      />
      <Group justify="flex-end">
        <Button
          variant="light"
          color="yellow"
          disabled={noteBody.trim() === ''}
          loading={note.isPending}
          onClick={() =>
            note.mutate({ id: c.id, body: noteBody.trim() }, { onSuccess: () => setNoteBody('') })
          }
          data-testid="support-note"
        >
          {t('conversation.addNote')}
        </Button>
      </Group>
      <ErrorNote error={reply.error ?? note.error} />
    </Stack>
  );
}

/** One conversation in the console: the customer's messages and attachments, notes, actions. */
export function ConversationPane({ id, canWrite }: { id: string; canWrite: boolean }) {
  const { t } = useTranslation('adminSupport');
  const lang = useLang();
  const detail = useSupportConversation(id);
  if (detail.isError) return <ErrorNote error={detail.error} />;
  const c = detail.data;
  if (!c) return null;
  return (
    <Paper withBorder p="md" radius="md" data-testid="support-admin-conversation" data-id={c.id}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
            {c.subject}
          </Text>
          <Badge data-testid="support-admin-status" data-status={c.status}>
            {t(`status.${c.status}`)}
          </Badge>
        </Group>
        <Text size="xs" c="dimmed">
          {t('table.customer')}: {c.customer_uid ?? '—'} · {t('table.language')}:{' '}
          {t(`lang.${c.customer_lang}`)}
          {c.ref_id ? ` · ${t('table.reference')}: ${c.ref_type} ${c.ref_id}` : ''} · {t('table.assignee')}:{' '}
          {c.assignee_name ?? t('table.nobody')}
        </Text>
        <Text size="xs" c="dimmed" data-testid="support-admin-times">
          {t('conversation.created')}: {formatTime(c.created_at, lang)} · {t('conversation.firstResponse')}:{' '}
          {formatTime(c.first_response_at, lang)} · {t('conversation.resolvedAt')}:{' '}
          {formatTime(c.resolved_at, lang)}
        </Text>
        <Actions c={c} canWrite={canWrite} />
        <ScrollArea.Autosize mah={460} type="auto">
          <Stack gap="xs">
            {c.messages.map((m) => (
              <Message key={m.seq} m={m} />
            ))}
          </Stack>
        </ScrollArea.Autosize>
        {canWrite ? <Composer c={c} /> : null}
      </Stack>
    </Paper>
  );
}
