import { SUPPORT_QUEUES, type SupportQueue } from '@bourse/protocol';
import {
  Alert,
  Badge,
  Button,
  Grid,
  Group,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { hasPermission, useStaffMe } from '../../app/session.ts';
import { ErrorNote } from '../../app/ui.tsx';
import { useSupportMe, useSupportQueue } from './api.ts';
import { ConversationPane } from './ConversationPane.tsx';

/**
 * The support console: the queues (unassigned, mine, open, pending, resolved), polled every few
 * seconds (no websocket in the back office), and the chosen conversation beside them.
 */
export default function ConsoleScreen() {
  const { t } = useTranslation('adminSupport');
  const lang = useLang();
  const me = useStaffMe();
  const canWrite = hasPermission(me.data, 'support.write');
  const [queue, setQueue] = useState<SupportQueue>('unassigned');
  const [selected, setSelected] = useState<string | null>(null);
  const list = useSupportQueue(queue);
  const agent = useSupportMe();
  return (
    <Stack gap="md" data-testid="support-console">
      <Group justify="space-between">
        <Title order={2}>{t('nav.console')}</Title>
        <Button variant="light" size="xs" onClick={() => void list.refetch()}>
          {t('common.refresh')}
        </Button>
      </Group>
      <Text size="xs" c="dimmed">
        {t('common.polling')}
      </Text>
      {agent.data ? (
        <Text size="sm" data-testid="support-my-code">
          {t('conversation.myCode', { name: agent.data.name, code: agent.data.code })}
        </Text>
      ) : null}
      {!canWrite ? (
        <Alert color="gray">{t('common.noPermission', { permission: 'support.write' })}</Alert>
      ) : null}
      <SegmentedControl
        value={queue}
        onChange={(v) => setQueue(v as SupportQueue)}
        data={SUPPORT_QUEUES.map((q) => ({ value: q, label: t(`queue.${q}`) }))}
        data-testid="support-queue-tabs"
      />
      <ErrorNote error={list.error} />
      <Grid>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          {list.data && list.data.items.length === 0 ? (
            <Text c="dimmed" data-testid="support-queue-empty">
              {t('common.empty')}
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={480}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('table.subject')}</Table.Th>
                    <Table.Th>{t('table.customer')}</Table.Th>
                    <Table.Th>{t('table.status')}</Table.Th>
                    <Table.Th>{t('table.assignee')}</Table.Th>
                    <Table.Th>{t('table.updated')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {list.data?.items.map((c) => (
                    <Table.Tr
                      key={c.id}
                      data-testid="support-queue-row"
                      data-id={c.id}
                      onClick={() => setSelected(c.id)}
                      style={{ cursor: 'pointer' }}
                      bg={c.id === selected ? 'blue.0' : undefined}
                    >
                      <Table.Td style={{ overflowWrap: 'anywhere' }}>{c.subject}</Table.Td>
                      <Table.Td>{c.customer_uid ?? '—'}</Table.Td>
                      <Table.Td>
                        <Badge size="sm" variant="light">
                          {t(`status.${c.status}`)}
                        </Badge>
                      </Table.Td>
                      <Table.Td>{c.assignee_name ?? t('table.nobody')}</Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTime(c.updated_at, lang)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 7 }}>
          {selected ? (
            <ConversationPane id={selected} canWrite={canWrite} />
          ) : (
            <Text c="dimmed">{t('conversation.pick')}</Text>
          )}
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
