import { C2C_LIMITS, type C2cMessageData, type C2cOrderData } from '@bourse/protocol';
import { Anchor, Button, Group, Paper, ScrollArea, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api.ts';
import { uploaderFor } from '../../../shared/upload/api.ts';
import { DocumentUpload } from '../../../shared/upload/DocumentUpload.tsx';
import { useC2cMessages, useOrderFileLink, useSendMessage } from '../api.ts';
import { ErrorNote, Loading, useC2cWords } from './parts.tsx';

const uploadAttachment = uploaderFor('remittance_proof');

/** An attachment: a short-lived link for either side of the order (`c2cFileLink`), else its id. */
function Attachment({ fileId, orderId }: { fileId: string; orderId: string }) {
  const { t } = useTranslation('c2c');
  const link = useOrderFileLink(orderId, fileId);
  const label = t('order.chatFile', { id: fileId });
  return link.data?.url ? (
    <Anchor href={link.data.url} target="_blank" rel="noreferrer" size="xs" data-testid="chat-file">
      {label}
    </Anchor>
  ) : (
    <Text size="xs" c="dimmed" data-testid="chat-file">
      {label}
    </Text>
  );
}

function Message({
  message,
  me,
  orderId,
}: {
  message: C2cMessageData;
  me: 'customer' | 'merchant';
  orderId: string;
}) {
  const { t } = useTranslation('c2c');
  const words = useC2cWords();
  const mine = message.from === me;
  return (
    <Stack
      gap={2}
      align={mine ? 'flex-end' : 'flex-start'}
      data-testid="chat-message"
      data-seq={message.seq}
      data-from={message.from}
    >
      <Text size="xs" c="dimmed">
        {mine ? t('party.me') : t(`party.${message.from}`)} · {words.time(message.at)}
      </Text>
      <Paper
        radius="md"
        px="sm"
        py={6}
        bg={mine ? 'blue.0' : message.from === 'staff' ? 'yellow.0' : 'gray.0'}
        maw="85%"
        style={{ overflowWrap: 'anywhere' }}
      >
        {message.body ? (
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid="chat-body">
            {message.body}
          </Text>
        ) : null}
        {message.file_id ? <Attachment fileId={message.file_id} orderId={orderId} /> : null}
      </Paper>
    </Stack>
  );
}

/**
 * The order's chat: messages (new ones arrive live on `c2c_private:<uid>`, merged by `useC2cLive`),
 * a text box and an attachment through the upload pipeline.
 */
export function OrderChat({ order, open }: { order: C2cOrderData; open: boolean }) {
  const { t } = useTranslation('c2c');
  const messages = useC2cMessages(order.order_id);
  const send = useSendMessage();
  const [body, setBody] = useState('');
  const [fileId, setFileId] = useState<string | null>(null);
  const [slot, setSlot] = useState(0);
  const me = order.role;
  const canSend = open && (body.trim() !== '' || fileId !== null) && !send.isPending;
  const submit = () => {
    send.mutate(
      {
        order_id: order.order_id,
        ...(body.trim() !== '' ? { body: body.trim() } : {}),
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
  };
  return (
    <Paper withBorder radius="lg" p="md" data-testid="c2c-chat">
      <Stack gap="sm">
        <Text fw={700}>{t('order.chat')}</Text>
        {messages.isPending ? (
          <Loading />
        ) : messages.isError ? (
          <ErrorNote error={messages.error} retry={() => void messages.refetch()} />
        ) : messages.data.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="chat-empty">
            {t('order.chatEmpty')}
          </Text>
        ) : (
          <ScrollArea.Autosize mah={420} type="auto">
            <Stack gap="sm" data-testid="chat-messages">
              {messages.data.map((m) => (
                <Message key={m.seq} message={m} me={me} orderId={order.order_id} />
              ))}
            </Stack>
          </ScrollArea.Autosize>
        )}
        {open ? (
          <Stack gap="xs">
            <Textarea
              label={t('order.chatInput')}
              value={body}
              onChange={(e) => setBody(e.currentTarget.value)}
              maxLength={C2C_LIMITS.messageMax}
              rows={3}
              data-testid="chat-input"
            />
            <DocumentUpload
              key={slot}
              label={t('order.chatAttach')}
              upload={uploadAttachment}
              onUploaded={(stored) => setFileId(stored.id)}
              testId="chat-upload"
            />
            {send.error instanceof ApiError ? <ErrorNote error={send.error} /> : null}
            <Group justify="flex-end">
              <Button onClick={submit} disabled={!canSend} loading={send.isPending} data-testid="chat-send">
                {t('order.chatSend')}
              </Button>
            </Group>
          </Stack>
        ) : null}
      </Stack>
    </Paper>
  );
}
