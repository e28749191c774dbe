import type { LoanDetailData, LoanRepaymentMethod } from '@bourse/protocol';
import {
  Alert,
  Button,
  Group,
  Modal,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api.ts';
import { uploaderFor } from '../../../shared/upload/api.ts';
import { DocumentUpload } from '../../../shared/upload/DocumentUpload.tsx';
import { useLendBack } from '../api.ts';
import { fullAmount, repaymentPreview, repayProblem } from '../logic.ts';
import { Line, RefusalNote, Usdt, useLoanWords } from './parts.tsx';

const uploadVoucher = uploaderFor('loan_voucher');

/** Repay from the balance (in full or part, with how it is applied) or by bank transfer with a voucher. */
export function RepayPanel({ detail }: { detail: LoanDetailData }) {
  const { t } = useTranslation('loans');
  const words = useLoanWords();
  const call = useLendBack();
  const [method, setMethod] = useState<LoanRepaymentMethod>('balance');
  const [amount, setAmount] = useState('');
  const [voucherId, setVoucherId] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const owed = fullAmount(detail);
  const outstanding = detail.loan.outstanding;
  const problem = repayProblem({ amount, owed, method, voucherId });
  const preview = outstanding && problem === null ? repaymentPreview(outstanding, amount) : null;
  const ready = amount.trim() !== '' && problem === null && (method === 'balance' || voucherId !== null);
  const refusal = call.error instanceof ApiError && call.error.kind === 'refused' ? call.error : null;
  const submit = () =>
    call.mutate(
      { loan_id: detail.loan.loan_id, amount: amount.trim(), method, voucher_id: voucherId },
      {
        onSuccess: (answer) => {
          setConfirming(false);
          setAmount('');
          setDone(
            answer.repayment.state === 'pending'
              ? t('repay.voucherDone')
              : t('repay.done', { amount: words.usdt(answer.repayment.amount) }),
          );
        },
        onError: () => setConfirming(false),
      },
    );
  return (
    <Paper withBorder radius="lg" p="md" data-testid="loan-repay">
      <Stack gap="sm">
        <Title order={2} fz="lg">
          {t('repay.title')}
        </Title>
        <SegmentedControl
          value={method}
          onChange={(v) => setMethod(v as LoanRepaymentMethod)}
          data={[
            { value: 'balance', label: t('repay.balance') },
            { value: 'voucher', label: t('repay.voucher') },
          ]}
          data-testid="repay-method"
        />
        <TextInput
          label={t('repay.amount')}
          value={amount}
          inputMode="decimal"
          onChange={(e) => setAmount(e.currentTarget.value)}
          error={
            problem && problem.kind !== 'voucherMissing'
              ? t(`repay.amountProblem.${problem.kind}`, { owed: owed ? words.usdt(owed) : '' })
              : undefined
          }
          rightSectionWidth={owed ? 170 : undefined}
          rightSection={
            owed ? (
              <Button
                size="compact-xs"
                variant="subtle"
                onClick={() => setAmount(owed)}
                data-testid="repay-full"
              >
                {t('repay.full', { amount: words.usdt(owed) })}
              </Button>
            ) : null
          }
          data-testid="repay-amount"
        />
        {preview ? (
          <Stack gap={4} data-testid="repay-preview">
            <Text size="sm" fw={600}>
              {t('repay.previewTitle')}
            </Text>
            <Text size="xs" c="dimmed">
              {t('repay.previewLead')}
            </Text>
            <Line label={t('detail.fees')}>
              <Usdt value={preview.paid.fees} testId="preview-fees" />
            </Line>
            <Line label={t('detail.dayInterest')}>
              <Usdt value={preview.paid.interest} testId="preview-interest" />
            </Line>
            <Line label={t('detail.principal')}>
              <Usdt value={preview.paid.principal} testId="preview-principal" />
            </Line>
            <Line label={t('repay.afterTotal')}>
              <Usdt value={preview.after.total} testId="preview-after" />
            </Line>
          </Stack>
        ) : null}
        {method === 'voucher' ? (
          <Stack gap="xs">
            <DocumentUpload
              testId="repay-voucher"
              label={t('repay.voucherLabel')}
              description={t('repay.voucherHint')}
              upload={uploadVoucher}
              onUploaded={(stored) => setVoucherId(stored.id)}
            />
            <Text size="xs" c="dimmed" data-testid="repay-voucher-note">
              {t('repay.voucherNote')}
            </Text>
          </Stack>
        ) : null}
        {refusal?.reason ? (
          <RefusalNote code={refusal.reason} params={refusal.params ?? {}} message={refusal.message} />
        ) : null}
        {done ? (
          <Alert color="teal" variant="light" data-testid="repay-done">
            {done}
          </Alert>
        ) : null}
        <Button disabled={!ready} onClick={() => setConfirming(true)} data-testid="repay-submit">
          {t(method === 'voucher' ? 'repay.submitVoucher' : 'repay.submit')}
        </Button>
      </Stack>
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={t('repay.confirmTitle', { amount: words.usdt(amount.trim() || '0') })}
        centered
      >
        <Group justify="flex-end" data-testid="repay-confirm">
          <Button variant="default" onClick={() => setConfirming(false)}>
            {t('repay.cancel')}
          </Button>
          <Button onClick={submit} loading={call.isPending} data-testid="repay-confirm-button">
            {t('repay.confirm')}
          </Button>
        </Group>
      </Modal>
    </Paper>
  );
}
