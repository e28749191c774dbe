import { SUPPORT_LIMITS, type SupportConversationData, type SupportMessageData } from '@bourse/protocol';
import {
  Anchor,
  Badge,
  Button,
  Group,
  Loader,
  Paper,
  ScrollArea,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format.ts';
import { useLang } from '../../../lib/i18n.ts';
import { uploaderFor } from '../../../shared/upload/api.ts';
import { DocumentUpload } from '../../../shared/upload/DocumentUpload.tsx';
import { useSendSupport, useSupportFileLink, useSupportMessages } from '../api.ts';
import { ErrorText } from './parts.tsx';

const uploadAttachment = uploaderFor('support');
const STATUS_COLORS = { open: 'blue', pending: 'orange', resolved: 'gray' } as const;

function Attachment({ id, fileId }: { id: string; fileId: string }) {
  const { t } = useTranslation('support');
  const link = useSupportFileLink(id, fileId);
  const label = t('chat.file', { id: fileId });
  return link.data?.url ? (
    <Anchor href={link.data.url} target="_blank" rel="noreferrer" size="xs" data-testid="support-file">
      {label}
    </Anchor>
  ) : (
    <Text size="xs" c="dimmed" data-testid="support-file">
      {label}
    </Text>
  );
}

function Message({ message, id }: { message: SupportMessageData; id: string }) {
  const { t } = useTranslation('support');
  const lang = useLang();
  const mine = message.from === 'customer';
  const author = mine
    ? t('chat.me')
    : t('chat.staff', { name: message.staff?.name ?? '', code: message.staff?.code ?? '' });
  return (
    <Stack
      gap={2}
      align={mine ? 'flex-end' : 'flex-start'}
      data-testid="support-message"
      data-seq={message.seq}
      data-from={message.from}
    >
      <Text size="xs" c="dimmed" data-testid={mine ? undefined : 'support-staff-id'}>
        {author} · {formatDateTime(message.at, lang)}
      </Text>
      <Paper
        radius="md"
        px="sm"
        py={6}
        bg={mine ? 'blue.0' : 'yellow.0'}
        maw="85%"
        style={{ overflowWrap: 'anywhere' }}
      >
        {message.body ? (
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {message.body}
          </Text>
        ) : null}
        {message.file_id ? <Attachment id={id} fileId={message.file_id} /> : null}
      </Paper>
      {message.out_of_hours ? (
        <Text size="xs" c="orange" data-testid="support-ticket">
          {t('chat.ticket')}
        </Text>
      ) : null}
    </Stack>
  );
}

/** One conversation: messages (staff replies arrive live), a text box and an attachment. */
export function Conversation({
  conversation,
  onBack,
}: {
  conversation: SupportConversationData;
  onBack: () => void;
}) {
  const { t } = useTranslation('support');
  const messages = useSupportMessages(conversation.id);
  const send = useSendSupport();
  const [body, setBody] = useState('');
  const [fileId, setFileId] = useState<string | null>(null);
  const [slot, setSlot] = useState(0);
  const canSend = (body.trim() !== '' || fileId !== null) && !send.isPending;
  const submit = () =>
    send.mutate(
      {
        id: conversation.id,
        ...(body.trim() ? { body: body.trim() } : {}),
        ...(fileId ? { file_id: fileId } : {}),
      },
      {
        onSuccess: () => {
          setBody('');
          setFileId(null);
          setSlot((n) => n + 1);
        },
      },
    );
  return (
    <Paper withBorder radius="lg" p="md" data-testid="support-conversation" data-id={conversation.id}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Title order={4} style={{ overflowWrap: 'anywhere' }}>
            {conversation.subject}
          </Title>
          <Badge
            color={STATUS_COLORS[conversation.status]}
            data-testid="support-status"
            data-status={conversation.status}
          >
            {t(`status.${conversation.status}`)}
          </Badge>
        </Group>
        {conversation.ref_id ? (
          <Text size="sm" c="dimmed" data-testid="support-ref">
            {t('start.ref', { ref: conversation.ref_id })}
          </Text>
        ) : null}
        {messages.isPending ? (
          <Loader size="sm" />
        ) : messages.isError ? (
          <ErrorText error={messages.error} />
        ) : messages.data.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('chat.empty')}
          </Text>
        ) : (
          <ScrollArea.Autosize mah={480} type="auto">
            <Stack gap="sm" data-testid="support-messages">
              {messages.data.map((m) => (
                <Message key={m.seq} message={m} id={conversation.id} />
              ))}
            </Stack>
          </ScrollArea.Autosize>
        )}
        {conversation.status === 'resolved' ? (
          <Text size="xs" c="dimmed">
            {t('chat.reopenHint')}
          </Text>
        ) : null}
        <Textarea
          label={t('chat.input')}
          value={body}
          onChange={(e) => setBody(e.currentTarget.value)}
          maxLength={SUPPORT_LIMITS.messageMax}
          rows={3}
          data-testid="support-input"
        />
        <DocumentUpload
          key={slot}
          label={t('chat.attach')}
          upload={uploadAttachment}
          onUploaded={(stored) => setFileId(stored.id)}
          testId="support-upload"
        />
        <ErrorText error={send.error} />
        <Group justify="space-between">
          <Button variant="subtle" onClick={onBack} data-testid="support-back">
            {t('chat.back')}
          </Button>
          <Button onClick={submit} disabled={!canSend} loading={send.isPending} data-testid="support-send">
            {t('chat.send')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
