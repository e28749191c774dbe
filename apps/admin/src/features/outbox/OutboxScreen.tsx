import { Badge, Button, Stack, Table, Text, Title } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api.ts';
import { formatTime, useLang } from '../../app/i18n.ts';
import { ErrorNote, Figure } from '../../app/ui.tsx';

type Message = {
  id: string;
  channel: string;
  recipient: string;
  subject: string;
  body: string;
  delivery: 'outbox' | 'sent' | 'failed';
  created_at: number;
};
const PAGE = 50;

/** The notify module's outbox, newest first, read only. */
export default function OutboxScreen() {
  const { t } = useTranslation();
  const lang = useLang();
  const pages = useInfiniteQuery({
    queryKey: ['getOutbox'],
    queryFn: ({ pageParam }) =>
      api.get<{ list: Message[] }>('getOutbox', { limit: PAGE, before_id: pageParam }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.list.length === PAGE ? last.list[last.list.length - 1]?.id : undefined),
  });
  const list = pages.data?.pages.flatMap((p) => p.list) ?? [];
  return (
    <Stack>
      <Title order={2}>{t('outbox.title')}</Title>
      <Text size="sm" c="dimmed">
        {t('outbox.intro')}
      </Text>
      <ErrorNote error={pages.error} />
      {pages.isSuccess && list.length === 0 ? <Text c="dimmed">{t('common.empty')}</Text> : null}
      {list.length > 0 ? (
        <Table.ScrollContainer minWidth={800}>
          <Table striped data-testid="outbox-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('common.time')}</Table.Th>
                <Table.Th>{t('outbox.recipient')}</Table.Th>
                <Table.Th>{t('outbox.channel')}</Table.Th>
                <Table.Th>{t('outbox.subject')}</Table.Th>
                <Table.Th>{t('outbox.body')}</Table.Th>
                <Table.Th>{t('outbox.delivery')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((m) => (
                <Table.Tr key={m.id}>
                  <Table.Td>
                    <Figure>{formatTime(m.created_at, lang)}</Figure>
                  </Table.Td>
                  {/* Addresses, order numbers and links are long words: they wrap, the table does not scroll. */}
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{m.recipient}</Table.Td>
                  <Table.Td>{m.channel}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{m.subject}</Table.Td>
                  <Table.Td>
                    <Text
                      size="sm"
                      style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', maxWidth: 420 }}
                    >
                      {m.body}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge
                      variant="light"
                      color={m.delivery === 'failed' ? 'red' : m.delivery === 'sent' ? 'green' : 'gray'}
                    >
                      {t(`outbox.deliveries.${m.delivery}`)}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      {pages.hasNextPage ? (
        <Button
          variant="default"
          onClick={() => void pages.fetchNextPage()}
          loading={pages.isFetchingNextPage}
        >
          {t('common.more')}
        </Button>
      ) : null}
    </Stack>
  );
}
