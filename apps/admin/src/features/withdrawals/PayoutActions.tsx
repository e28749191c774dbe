import { Button, Group, Select, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api.ts';
import { ReasonDialog } from '../../app/ui.tsx';
import { MoneySummary, type QueueWithdrawal } from './WithdrawalContext.tsx';

const FAIL_REASONS = ['network_rejected', 'destination_rejected', 'provider_error', 'bank_returned'] as const;
type FailReason = (typeof FAIL_REASONS)[number];

export type PayoutRow = QueueWithdrawal & {
  /** 1: a first staff member marked it paid (four-eyes); a second confirms with the same reference. */
  paid_requested?: 0 | 1;
};

/**
 * A payout on its way (processing): mark it failed (a reason the customer reads, and a note for the
 * audit) or, for a bank withdrawal, paid with the bank's reference and a note. Each asks for
 * confirmation, stating the amount, the customer and the destination.
 */
export function PayoutActions(props: { row: PayoutRow; onDone: (notice: string) => Promise<void> | void }) {
  const { t } = useTranslation('withdraw');
  const { row } = props;
  const [dialog, setDialog] = useState<'fail' | 'paid' | null>(null);
  const [failReason, setFailReason] = useState<FailReason>(
    row.method === 'bank' ? 'bank_returned' : 'network_rejected',
  );
  const [reference, setReference] = useState('');
  return (
    <>
      <Group gap="xs" wrap="nowrap">
        {row.method === 'bank' ? (
          <Button size="xs" onClick={() => setDialog('paid')} data-testid="withdrawal-paid">
            {t(row.paid_requested ? 'admin.payout.confirmPaid' : 'admin.payout.markPaid')}
          </Button>
        ) : null}
        <Button
          size="xs"
          color="red"
          variant="light"
          onClick={() => setDialog('fail')}
          data-testid="withdrawal-fail"
        >
          {t('admin.payout.markFailed')}
        </Button>
      </Group>
      <ReasonDialog
        opened={dialog === 'fail'}
        title={t('admin.payout.failTitle')}
        text={t('admin.payout.failText')}
        confirmLabel={t('admin.payout.markFailed')}
        size="lg"
        danger
        onClose={() => setDialog(null)}
        onSubmit={async (note) => {
          await api.post('withdrawals/fail', { withdrawal_id: row.id, reason: failReason, note });
          setDialog(null);
          await props.onDone(t('admin.payout.failed'));
        }}
      >
        <MoneySummary row={row} />
        <Select
          label={t('admin.payout.failReason')}
          value={failReason}
          onChange={(v) => v && setFailReason(v as FailReason)}
          data={FAIL_REASONS.map((r) => ({ value: r, label: t(`records.payout.failReason.${r}`) }))}
          allowDeselect={false}
          data-testid="fail-reason"
        />
      </ReasonDialog>
      <ReasonDialog
        opened={dialog === 'paid'}
        title={t('admin.payout.paidTitle')}
        text={t(row.paid_requested ? 'admin.payout.secondText' : 'admin.payout.paidText')}
        confirmLabel={t('admin.payout.markPaid')}
        size="lg"
        onClose={() => setDialog(null)}
        onSubmit={async (note) => {
          await api.post('withdrawals/paid', { withdrawal_id: row.id, bank_reference: reference, note });
          setDialog(null);
          setReference('');
          await props.onDone(t('admin.payout.paid'));
        }}
      >
        <MoneySummary row={row} />
        <TextInput
          label={t('admin.payout.bankReference')}
          value={reference}
          onChange={(e) => setReference(e.currentTarget.value)}
          required
          maxLength={64}
          data-testid="bank-reference"
        />
      </ReasonDialog>
    </>
  );
}
