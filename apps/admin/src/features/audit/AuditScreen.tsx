import { Alert, Button, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api.ts';
import { formatTime, useLang } from '../../app/i18n.ts';
import { ErrorNote, Figure } from '../../app/ui.tsx';

type Row = {
  seq: number;
  id: string;
  actor_id: string;
  actor: string;
  action: string;
  target_type: string;
  target_id: string;
  before: unknown;
  after: unknown;
  reason: string | null;
  created_at: number;
  prev_hash: string;
  hash: string;
};
type Chain = { ok: boolean; records: number; brokenAt: { seq: number; id: string; problem: string } | null };
const PAGE = 50;

function Json({ value }: { value: unknown }) {
  if (value === null || value === undefined)
    return (
      <Text size="xs" c="dimmed">
        —
      </Text>
    );
  const text = JSON.stringify(value);
  return (
    <Text
      size="xs"
      ff="monospace"
      lineClamp={3}
      title={text}
      style={{ maxWidth: 260, wordBreak: 'break-all' }}
    >
      {text}
    </Text>
  );
}

/** The audit log, newest first, with the hash chain's verification status. */
export default function AuditScreen() {
  const { t } = useTranslation();
  const lang = useLang();
  const [filter, setFilter] = useState('');
  const [applied, setApplied] = useState('');
  const chain = useQuery({ queryKey: ['verifyAudit'], queryFn: () => api.get<Chain>('verifyAudit') });
  const filterParams = applied.startsWith('stf_')
    ? { actor_id: applied }
    : applied
      ? { target_id: applied }
      : {};
  const pages = useInfiniteQuery({
    queryKey: ['getAuditLog', applied],
    queryFn: ({ pageParam }) =>
      api.get<{ list: Row[] }>('getAuditLog', { limit: PAGE, before_seq: pageParam, ...filterParams }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) =>
      last.list.length === PAGE ? last.list[last.list.length - 1]?.seq : undefined,
  });
  const list = pages.data?.pages.flatMap((p) => p.list) ?? [];
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('audit.title')}</Title>
        <Button
          variant="default"
          onClick={() => void chain.refetch()}
          loading={chain.isFetching}
          data-testid="audit-verify"
        >
          {t('audit.verify')}
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        {t('audit.intro')}
      </Text>
      {chain.data ? (
        <Alert color={chain.data.ok ? 'green' : 'red'} variant="light" data-testid="audit-chain">
          {chain.data.ok
            ? t('audit.chainOk', { records: chain.data.records })
            : t('audit.chainBroken', {
                seq: chain.data.brokenAt?.seq,
                problem: chain.data.brokenAt?.problem,
              })}
        </Alert>
      ) : null}
      <ErrorNote error={chain.error ?? pages.error} />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setApplied(filter.trim());
        }}
      >
        <Group align="flex-end" wrap="nowrap">
          <TextInput
            style={{ flex: 1 }}
            label={t('audit.filter')}
            value={filter}
            onChange={(e) => setFilter(e.currentTarget.value)}
            maxLength={64}
          />
          <Button type="submit" variant="light">
            {t('common.refresh')}
          </Button>
        </Group>
      </form>
      <Table.ScrollContainer minWidth={720}>
        <Table striped data-testid="audit-table" verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('audit.seq')}</Table.Th>
              <Table.Th>{t('common.time')}</Table.Th>
              <Table.Th>{t('audit.actor')}</Table.Th>
              <Table.Th>{t('audit.action')}</Table.Th>
              <Table.Th>{t('audit.target')}</Table.Th>
              <Table.Th>{t('common.reason')}</Table.Th>
              <Table.Th>{t('audit.change')}</Table.Th>
              <Table.Th>{t('audit.hash')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.map((r) => (
              <Table.Tr key={r.seq} data-testid="audit-row">
                <Table.Td>
                  <Figure>{r.seq}</Figure>
                </Table.Td>
                <Table.Td>
                  <Figure>{formatTime(r.created_at, lang)}</Figure>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" style={{ wordBreak: 'break-all' }}>
                    {r.actor}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {/* Action names (`verification.settings.update`) and reasons may hold long unbroken words. */}
                  <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {r.action}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="xs">{r.target_type}</Text>
                  <Text size="xs" ff="monospace" c="dimmed" style={{ wordBreak: 'break-all' }}>
                    {r.target_id}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {r.reason ?? '—'}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Stack gap={2}>
                    {r.before !== null ? <Json value={r.before} /> : null}
                    <Json value={r.after} />
                  </Stack>
                </Table.Td>
                <Table.Td>
                  <Text size="xs" ff="monospace" c="dimmed" title={r.hash}>
                    {r.hash.slice(0, 12)}…
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
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
