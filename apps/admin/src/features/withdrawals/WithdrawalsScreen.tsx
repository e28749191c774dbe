import {
  Badge,
  Button,
  Group,
  Pagination,
  ScrollArea,
  SegmentedControl,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api.ts';
import { formatTime, useLang } from '../../app/i18n.ts';
import { Amount, ErrorNote, Figure, ReasonDialog, useAmountText } from '../../app/ui.tsx';
import { CustomerCell, CustomerDrawer } from '../customers/CustomerSummary.tsx';
import { type Column, DataTable } from '../derivatives/shared.tsx';
import { PayoutActions } from './PayoutActions.tsx';
import { MoneySummary, type QueueWithdrawal, RiskBadges, WithdrawalSection } from './WithdrawalContext.tsx';

type Withdrawal = QueueWithdrawal & {
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

/**
 * The withdrawals queue: each row with its customer (the drawer: identity, verification, account
 * age, recent activity, the destination's history, risk flags). Approve (sent to the payout
 * provider) and reject each open a confirmation stating amount, customer and destination, and
 * need a reason; both audited.
 */
export default function WithdrawalsScreen() {
  const { t } = useTranslation('withdraw');
  const lang = useLang();
  const client = useQueryClient();
  const amountText = useAmountText();
  const [state, setState] = useState<(typeof STATES)[number]>('pending');
  const [page, setPage] = useState(1);
  const [deciding, setDeciding] = useState<{ row: Withdrawal; action: 'approve' | 'reject' } | null>(null);
  const [shown, setShown] = useState<Withdrawal | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const queue = useQuery({
    queryKey: ['withdrawals/queue', state, page],
    queryFn: () =>
      api.get<{ list: Withdrawal[]; total: number }>('withdrawals/queue', { state, page, page_size: PAGE }),
  });
  const list = queue.data?.list ?? [];
  const columns: Column<Withdrawal>[] = [
    {
      key: 'customer',
      label: t('admin.customer'),
      render: (w) => (
        <Stack gap={4}>
          <CustomerCell customer={w.customer} onOpen={() => setShown(w)} />
          <RiskBadges flags={w.risk} />
        </Stack>
      ),
    },
    {
      key: 'time',
      label: t('records.columns.time'),
      render: (w) => <Figure>{formatTime(w.created_at, lang)}</Figure>,
    },
    {
      key: 'currency',
      label: t('records.columns.currency'),
      render: (w) => `${w.currency} · ${w.method === 'bank' ? t('records.methods.bank') : w.chain}`,
    },
    {
      key: 'destination',
      label: t('records.columns.destination'),
      render: (w) => (
        <>
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
        </>
      ),
    },
    {
      key: 'amount',
      label: t('records.columns.amount'),
      align: 'right',
      render: (w) => <Amount value={w.amount} currency={w.currency} />,
    },
    {
      key: 'fee',
      label: t('records.columns.fee'),
      align: 'right',
      render: (w) => <Amount value={w.fee} currency={w.currency} />,
    },
    {
      key: 'received',
      label: t('records.columns.received'),
      align: 'right',
      render: (w) => <Amount value={w.received} currency={w.currency} />,
    },
    {
      key: 'state',
      label: t('admin.state'),
      render: (w) => (
        <Badge variant="light" color={COLOR[w.state]}>
          {t(`records.state.${w.state}`)}
        </Badge>
      ),
    },
    {
      key: 'actions',
      label: '',
      render: (w) => (
        <>
          {w.state === 'pending' ? (
            <Group gap="xs" wrap="nowrap">
              <Button
                size="xs"
                onClick={() => setDeciding({ row: w, action: 'approve' })}
                data-testid="withdrawal-approve"
              >
                {t('admin.approve')}
              </Button>
              <Button
                size="xs"
                color="red"
                variant="light"
                onClick={() => setDeciding({ row: w, action: 'reject' })}
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
        </>
      ),
    },
  ];
  return (
    <Stack data-testid="withdrawals-screen">
      <Title order={2}>{t('admin.queueTitle')}</Title>
      <ScrollArea type="auto" scrollbars="x" offsetScrollbars>
        <SegmentedControl
          w="fit-content"
          value={state}
          onChange={(v) => {
            setState(v as (typeof STATES)[number]);
            setPage(1);
          }}
          data={STATES.map((s) => ({ value: s, label: t(`records.state.${s}`) }))}
        />
      </ScrollArea>
      <ErrorNote error={queue.error} />
      {notice ? (
        <Text size="sm" c="green" data-testid="withdrawal-notice">
          {notice}
        </Text>
      ) : null}
      {queue.isSuccess && list.length === 0 ? <Text c="dimmed">{t('admin.empty')}</Text> : null}
      {list.length > 0 ? (
        <DataTable
          rows={list}
          rowKey={(w) => w.id}
          testId="withdrawals-table"
          rowTestId="withdrawal-row"
          columns={columns}
        />
      ) : null}
      {(queue.data?.total ?? 0) > PAGE ? (
        <Pagination value={page} onChange={setPage} total={Math.ceil((queue.data?.total ?? 0) / PAGE)} />
      ) : null}
      <ReasonDialog
        opened={deciding !== null}
        title={t(deciding?.action === 'reject' ? 'admin.rejectTitle' : 'admin.confirm.approveTitle')}
        text={t(deciding?.action === 'reject' ? 'admin.confirm.rejectText' : 'admin.confirm.approveText')}
        confirmLabel={t(deciding?.action === 'reject' ? 'admin.reject' : 'admin.approve')}
        danger={deciding?.action === 'reject'}
        size="lg"
        onClose={() => setDeciding(null)}
        onSubmit={async (reason) => {
          if (!deciding) return;
          const { row, action } = deciding;
          await api.post(`withdrawals/${action}`, { withdrawal_id: row.id, reason });
          setNotice(t(action === 'reject' ? 'admin.rejected' : 'admin.approved'));
          setDeciding(null);
          await client.invalidateQueries({ queryKey: ['withdrawals/queue'] });
        }}
      >
        {deciding ? <MoneySummary row={deciding.row} /> : null}
      </ReasonDialog>
      <CustomerDrawer
        customer={shown?.customer ?? null}
        title={shown ? `${amountText(shown.amount, shown.currency)} · ${shown.customer?.name ?? ''}` : ''}
        onClose={() => setShown(null)}
      >
        {shown ? <WithdrawalSection row={shown} /> : null}
      </CustomerDrawer>
    </Stack>
  );
}
