import { Badge, Button, Group, Pagination, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api.ts';
import { formatTime, useLang } from '../../app/i18n.ts';
import { Amount, ErrorNote, Figure, ReasonDialog } from '../../app/ui.tsx';
import { PayoutActions } from './PayoutActions.tsx';

type Withdrawal = {
  id: string;
  method: 'address' | 'bank';
  currency: string;
  chain: string;
  destination: string;
  amount: string;
  fee: string;
  received: string;
  state: 'pending' | 'processing' | 'completed' | 'failed' | 'rejected' | 'cancelled';
  reject_reason: string;
  fail_reason: string;
  tx_hash: string;
  explorer_url: string;
  bank_reference: string;
  paid_requested: 0 | 1;
  created_at: number;
};
const STATES = ['pending', 'processing', 'completed', 'failed', 'rejected', 'cancelled'] as const;
const COLOR = {
  pending: 'yellow',
  processing: 'blue',
  completed: 'green',
  failed: 'red',
  rejected: 'red',
  cancelled: 'gray',
} as const;
const PAGE = 20;

/** The withdrawals queue: approve (sent to the payout provider) or reject with a reason; both audited. */
export default function WithdrawalsScreen() {
  const { t } = useTranslation('withdraw');
  const lang = useLang();
  const client = useQueryClient();
  const [state, setState] = useState<(typeof STATES)[number]>('pending');
  const [page, setPage] = useState(1);
  const [rejecting, setRejecting] = useState<Withdrawal | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const queue = useQuery({
    queryKey: ['withdrawals/queue', state, page],
    queryFn: () =>
      api.get<{ list: Withdrawal[]; total: number }>('withdrawals/queue', { state, page, page_size: PAGE }),
  });
  const approve = useMutation({
    mutationFn: (id: string) => api.post<Withdrawal>('withdrawals/approve', { withdrawal_id: id }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['withdrawals/queue'] }),
  });
  const list = queue.data?.list ?? [];
  return (
    <Stack data-testid="withdrawals-screen">
      <Title order={2}>{t('admin.queueTitle')}</Title>
      <SegmentedControl
        w="fit-content"
        value={state}
        onChange={(v) => {
          setState(v as (typeof STATES)[number]);
          setPage(1);
        }}
        data={STATES.map((s) => ({ value: s, label: t(`records.state.${s}`) }))}
      />
      <ErrorNote error={queue.error ?? approve.error} />
      {approve.isSuccess || notice ? (
        <Text size="sm" c="green" data-testid="withdrawal-notice">
          {approve.isSuccess ? t('admin.approved') : notice}
        </Text>
      ) : null}
      {queue.isSuccess && list.length === 0 ? <Text c="dimmed">{t('admin.empty')}</Text> : null}
      {list.length > 0 ? (
        <Table.ScrollContainer minWidth={900}>
          <Table striped data-testid="withdrawals-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('records.columns.time')}</Table.Th>
                <Table.Th>{t('records.columns.currency')}</Table.Th>
                <Table.Th>{t('records.columns.destination')}</Table.Th>
                <Table.Th ta="right">{t('records.columns.amount')}</Table.Th>
                <Table.Th ta="right">{t('records.columns.fee')}</Table.Th>
                <Table.Th ta="right">{t('records.columns.received')}</Table.Th>
                <Table.Th>{t('admin.state')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((w) => (
                <Table.Tr key={w.id} data-testid="withdrawal-row">
                  <Table.Td>
                    <Figure>{formatTime(w.created_at, lang)}</Figure>
                  </Table.Td>
                  <Table.Td>
                    {w.currency} · {w.method === 'bank' ? t('records.methods.bank') : w.chain}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all', maxWidth: 360 }}>
                      {w.destination}
                    </Text>
                    {w.reject_reason ? (
                      <Text size="xs" c="red">
                        {t('records.reason', { reason: w.reject_reason })}
                      </Text>
                    ) : null}
                    {w.tx_hash ? (
                      <Text
                        size="xs"
                        c="dimmed"
                        ff="monospace"
                        style={{ wordBreak: 'break-all' }}
                        data-testid="withdrawal-tx"
                      >
                        {t('records.payout.txHash')} {w.tx_hash}
                      </Text>
                    ) : null}
                    {w.bank_reference ? (
                      <Text size="xs" c="dimmed">
                        {t('records.payout.bankReference', { reference: w.bank_reference })}
                      </Text>
                    ) : null}
                    {w.paid_requested && w.state === 'processing' ? (
                      <Text size="xs" c="orange" data-testid="withdrawal-awaiting">
                        {t('admin.payout.awaiting')}
                      </Text>
                    ) : null}
                    {w.fail_reason ? (
                      <Text size="xs" c="red">
                        {t('records.payout.failed', {
                          reason: t(`records.payout.failReason.${w.fail_reason as 'provider_error'}`),
                        })}
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td ta="right">
                    <Amount value={w.amount} currency={w.currency} />
                  </Table.Td>
                  <Table.Td ta="right">
                    <Figure>{w.fee}</Figure>
                  </Table.Td>
                  <Table.Td ta="right">
                    <Figure>{w.received}</Figure>
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={COLOR[w.state]}>
                      {t(`records.state.${w.state}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    {w.state === 'pending' ? (
                      <Group gap="xs" wrap="nowrap">
                        <Button
                          size="xs"
                          loading={approve.isPending && approve.variables === w.id}
                          onClick={() => approve.mutate(w.id)}
                          data-testid="withdrawal-approve"
                        >
                          {t('admin.approve')}
                        </Button>
                        <Button
                          size="xs"
                          color="red"
                          variant="light"
                          onClick={() => setRejecting(w)}
                          data-testid="withdrawal-reject"
                        >
                          {t('admin.reject')}
                        </Button>
                      </Group>
                    ) : null}
                    {w.state === 'processing' ? (
                      <PayoutActions
                        row={w}
                        onDone={async (text) => {
                          setNotice(text);
                          await client.invalidateQueries({ queryKey: ['withdrawals/queue'] });
                        }}
                      />
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      {(queue.data?.total ?? 0) > PAGE ? (
        <Pagination value={page} onChange={setPage} total={Math.ceil((queue.data?.total ?? 0) / PAGE)} />
      ) : null}
      <ReasonDialog
        opened={rejecting !== null}
        title={t('admin.rejectTitle')}
        text={rejecting ? `${rejecting.amount} ${rejecting.currency} → ${rejecting.destination}` : ''}
        confirmLabel={t('admin.reject')}
        danger
        onClose={() => setRejecting(null)}
        onSubmit={async (reason) => {
          if (!rejecting) return;
          await api.post('withdrawals/reject', { withdrawal_id: rejecting.id, reason });
          setNotice(t('admin.rejected'));
          setRejecting(null);
          await client.invalidateQueries({ queryKey: ['withdrawals/queue'] });
        }}
      />
    </Stack>
  );
}
