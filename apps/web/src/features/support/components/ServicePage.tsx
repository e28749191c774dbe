import { SUPPORT_LIMITS, SUPPORT_REF_TYPES, type SupportRefType } from '@bourse/protocol';
import {
  Badge,
  Button,
  Grid,
  Group,
  Paper,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { formatDateTime } from '../../../lib/format.ts';
import { useLang } from '../../../lib/i18n.ts';
import { uploaderFor } from '../../../shared/upload/api.ts';
import { DocumentUpload } from '../../../shared/upload/DocumentUpload.tsx';
import { useConversations, useStartConversation, useSupportInfo, useSupportLive } from '../api.ts';
import { Conversation } from './Conversation.tsx';
import { ErrorText, HoursNotice, SafetyNotice, StaffCheck } from './parts.tsx';

const uploadAttachment = uploaderFor('support');

function refFrom(params: URLSearchParams): { ref_type: SupportRefType; ref_id: string } | null {
  const type = params.get('ref_type');
  const id = params.get('ref_id')?.trim();
  if (!type || !id || !(SUPPORT_REF_TYPES as readonly string[]).includes(type)) return null;
  return { ref_type: type as SupportRefType, ref_id: id.slice(0, 64) };
}

function StartForm({ onStarted }: { onStarted: (id: string) => void }) {
  const { t } = useTranslation('support');
  const [params] = useSearchParams();
  const ref = refFrom(params);
  const start = useStartConversation();
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  const [fileId, setFileId] = useState<string | null>(null);
  const submit = () =>
    start.mutate(
      { subject: subject.trim(), body: body.trim(), ...(ref ?? {}), ...(fileId ? { file_id: fileId } : {}) },
      { onSuccess: (answer) => onStarted(answer.conversation.id) },
    );
  return (
    <Paper withBorder radius="lg" p="md" data-testid="support-start">
      <Stack gap="sm">
        <Title order={4}>{t('start.title')}</Title>
        {ref ? (
          <Text size="sm" c="dimmed" data-testid="support-start-ref">
            {t('start.ref', { ref: ref.ref_id })}
          </Text>
        ) : null}
        <TextInput
          label={t('start.subject')}
          value={subject}
          maxLength={SUPPORT_LIMITS.subjectMax}
          onChange={(e) => setSubject(e.currentTarget.value)}
          data-testid="support-subject"
        />
        <Textarea
          label={t('start.body')}
          value={body}
          maxLength={SUPPORT_LIMITS.messageMax}
          rows={4}
          onChange={(e) => setBody(e.currentTarget.value)}
          data-testid="support-body"
        />
        <DocumentUpload
          label={t('start.attach')}
          upload={uploadAttachment}
          onUploaded={(stored) => setFileId(stored.id)}
          testId="support-start-upload"
        />
        <ErrorText error={start.error} />
        <Group justify="flex-end">
          <Button
            onClick={submit}
            disabled={subject.trim() === '' || body.trim() === '' || start.isPending}
            loading={start.isPending}
            data-testid="support-start-submit"
          >
            {t('start.submit')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/**
 * `/service`: my conversations with staff, a new one (linked to an order when opened from one:
 * `?ref_type=c2c_order&ref_id=`), the open conversation (`?id=`) with live replies, the staffed hours
 * told truthfully, the staff-code check and what staff never ask for. One column on phones.
 */
export function ServicePage() {
  const { t } = useTranslation('support');
  const lang = useLang();
  useSupportLive();
  const info = useSupportInfo();
  const list = useConversations();
  const [params, setParams] = useSearchParams();
  const selectedId = params.get('id');
  const select = (id: string | null) =>
    setParams((p) => {
      const next = new URLSearchParams(p);
      if (id) next.set('id', id);
      else next.delete('id');
      return next;
    });
  const selected = list.data?.find((c) => c.id === selectedId) ?? null;
  return (
    <Stack gap="md" p="md" maw={1400} mx="auto" data-testid="support-page">
      <Title order={2}>{t('title')}</Title>
      <Text c="dimmed" size="sm">
        {t('intro')}
      </Text>
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 6 }}>
          <HoursNotice info={info.data} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <SafetyNotice />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }}>
          {selected ? (
            <Conversation conversation={selected} onBack={() => select(null)} />
          ) : (
            <StartForm onStarted={select} />
          )}
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="md">
            <Paper withBorder radius="md" p="sm" data-testid="support-list">
              <Stack gap="xs">
                <Group justify="space-between">
                  <Text fw={600}>{t('list.title')}</Text>
                  {selected ? (
                    <Button size="xs" variant="light" onClick={() => select(null)} data-testid="support-new">
                      {t('list.new')}
                    </Button>
                  ) : null}
                </Group>
                <ErrorText error={list.error} />
                {list.data?.length === 0 ? (
                  <Text size="sm" c="dimmed">
                    {t('list.empty')}
                  </Text>
                ) : null}
                {list.data?.map((c) => (
                  <UnstyledButton
                    key={c.id}
                    onClick={() => select(c.id)}
                    data-testid="support-item"
                    data-id={c.id}
                    p={6}
                    style={{
                      borderRadius: 6,
                      background: c.id === selectedId ? 'var(--mantine-color-blue-0)' : undefined,
                    }}
                  >
                    <Group justify="space-between" wrap="nowrap" gap="xs">
                      <Text size="sm" fw={500} lineClamp={1} style={{ overflowWrap: 'anywhere' }}>
                        {c.subject}
                      </Text>
                      <Badge size="sm" variant="light">
                        {t(`status.${c.status}`)}
                      </Badge>
                    </Group>
                    <Text size="xs" c="dimmed">
                      {formatDateTime(c.updated_at, lang)}
                    </Text>
                  </UnstyledButton>
                ))}
              </Stack>
            </Paper>
            <StaffCheck />
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
