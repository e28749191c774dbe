import {
  type AdminLoanRepaymentData,
  LOAN_LIMITS,
  LOAN_REPAYMENT_STATES,
  type LoanRepaymentState,
} from '@bourse/protocol';
import {
  Button,
  Card,
  Group,
  Pagination,
  SegmentedControl,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { DoneNote, ErrorNote, ReasonDialog, useAmountText } from '../../app/ui.tsx';
import { PAGE_SIZE, useRepayments, useVoucherDecision } from './api.ts';
import { LoanDrawer } from './LoanDrawer.tsx';
import { DECIDE_PERMISSION, DocumentLinks, Facts, NoPermission, Usdt, useLoanStaff } from './parts.tsx';

type Deciding = { repayment: AdminLoanRepaymentData; decision: 'confirm' | 'reject' };

function VoucherDialog({
  deciding,
  onClose,
  onDone,
}: {
  deciding: Deciding | null;
  onClose: () => void;
  onDone: (text: string) => void;
}) {
  const { t } = useTranslation('adminLoans');
  const decide = useVoucherDecision();
  const amountText = useAmountText();
  const [received, setReceived] = useState('');
  const r = deciding?.repayment;
  const amount = received.trim() || r?.amount || '';
  const params = r ? { amount: amountText(amount, 'USDT'), uid: r.uid, loan: r.loan_id } : {};
  return (
    <ReasonDialog
      opened={deciding !== null}
      size="lg"
      title={deciding ? t(`vouchers.${deciding.decision}Title`, params) : ''}
      text={deciding ? t(`vouchers.${deciding.decision}Text`, params) : undefined}
      confirmLabel={deciding ? t(`vouchers.${deciding.decision}`) : ''}
      danger={deciding?.decision === 'reject'}
      onClose={() => {
        setReceived('');
        onClose();
      }}
      onSubmit={async (reason) => {
        if (!deciding || !r) return;
        if (reason.trim().length < LOAN_LIMITS.reasonMin)
          throw new Error(t('common.reasonShort', { min: LOAN_LIMITS.reasonMin }));
        await decide.mutateAsync({
          id: r.repayment_id,
          decision: deciding.decision,
          amount: deciding.decision === 'confirm' && received.trim() ? received.trim() : undefined,
          reason: reason.trim(),
        });
        onDone(t(`vouchers.${deciding.decision}Done`, params));
      }}
    >
      {r ? (
        <Facts
          testId="loans-voucher-summary"
          rows={[
            [t('repayments.uid'), r.uid],
            [t('repayments.loan'), r.loan_id],
            [t('vouchers.declared'), <Usdt key="a" value={r.amount} suffix />],
            [
              t('repayments.voucher'),
              r.voucher_id ? <DocumentLinks key="v" loanId={r.loan_id} fileIds={[r.voucher_id]} /> : '—',
            ],
          ]}
        />
      ) : null}
      {deciding?.decision === 'confirm' ? (
        <TextInput
          label={t('vouchers.received')}
          description={t('vouchers.receivedHint')}
          placeholder={r?.amount}
          value={received}
          onChange={(e) => setReceived(e.currentTarget.value)}
          data-testid="loans-voucher-amount"
        />
      ) : null}
    </ReasonDialog>
  );
}

/**
 * Repayments; bank-transfer vouchers waiting (`pending`) first: open the voucher (audited link),
 * confirm the amount received (posts the repayment) or reject, each with a reason.
 */
export default function RepaymentsScreen() {
  const { t } = useTranslation('adminLoans');
  const lang = useLang();
  const [state, setState] = useState<LoanRepaymentState | ''>('pending');
  const [page, setPage] = useState(1);
  const list = useRepayments({ state: state || undefined, page, page_size: PAGE_SIZE });
  const { canDecide } = useLoanStaff();
  const [deciding, setDeciding] = useState<Deciding | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [shown, setShown] = useState<string | null>(null);
  const items = list.data?.items ?? [];
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('repayments.title')}</Title>
        <Button variant="default" size="xs" onClick={() => void list.refetch()}>
          {t('common.refresh')}
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        {t('repayments.intro')}
      </Text>
      {!canDecide ? <NoPermission permission={DECIDE_PERMISSION} /> : null}
      <SegmentedControl
        w="fit-content"
        value={state}
        onChange={(v) => {
          setState(v as LoanRepaymentState | '');
          setPage(1);
        }}
        data={[
          ...LOAN_REPAYMENT_STATES.map((s) => ({ value: s, label: t(`repaymentState.${s}`) })),
          { value: '', label: t('common.all') },
        ]}
      />
      <DoneNote onClose={() => setNote(null)} data-testid="loans-note">
        {note}
      </DoneNote>
      <ErrorNote error={list.error} />
      <Card withBorder>
        {items.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('common.empty')}
          </Text>
        ) : (
          <Table fz="sm" striped data-testid="loans-repayments">
            <Table.Thead>
              <Table.Tr>
                {(
                  ['id', 'uid', 'loan', 'method', 'state', 'amount', 'voucher', 'created', 'actions'] as const
                ).map((h) => (
                  <Table.Th key={h}>{t(`repayments.${h}`)}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((r) => (
                <Table.Tr key={r.repayment_id} data-testid="loans-repayment" data-repayment={r.repayment_id}>
                  <Table.Td>{r.repayment_id}</Table.Td>
                  <Table.Td>{r.uid}</Table.Td>
                  <Table.Td>
                    <Button size="compact-xs" variant="subtle" onClick={() => setShown(r.loan_id)}>
                      {r.loan_id}
                    </Button>
                  </Table.Td>
                  <Table.Td>{t(`method.${r.method}`)}</Table.Td>
                  <Table.Td>{t(`repaymentState.${r.state}`)}</Table.Td>
                  <Table.Td>
                    <Usdt value={r.amount} />
                  </Table.Td>
                  <Table.Td>
                    {r.voucher_id ? <DocumentLinks loanId={r.loan_id} fileIds={[r.voucher_id]} /> : '—'}
                  </Table.Td>
                  <Table.Td>{formatTime(r.created_at, lang)}</Table.Td>
                  <Table.Td>
                    {canDecide && r.state === 'pending' ? (
                      <Group gap={4} wrap="nowrap">
                        <Button
                          size="compact-xs"
                          onClick={() => setDeciding({ repayment: r, decision: 'confirm' })}
                          data-testid="loans-voucher-confirm"
                        >
                          {t('vouchers.confirm')}
                        </Button>
                        <Button
                          size="compact-xs"
                          color="red"
                          variant="light"
                          onClick={() => setDeciding({ repayment: r, decision: 'reject' })}
                          data-testid="loans-voucher-reject"
                        >
                          {t('vouchers.reject')}
                        </Button>
                      </Group>
                    ) : (
                      (r.decision_reason ?? null)
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Card>
      {(list.data?.total ?? 0) > PAGE_SIZE ? (
        <Pagination total={Math.ceil((list.data?.total ?? 0) / PAGE_SIZE)} value={page} onChange={setPage} />
      ) : null}
      <VoucherDialog deciding={deciding} onClose={() => setDeciding(null)} onDone={setNote} />
      <LoanDrawer loanId={shown} onClose={() => setShown(null)} />
    </Stack>
  );
}
