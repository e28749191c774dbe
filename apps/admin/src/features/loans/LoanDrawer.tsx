import {
  type AdminLoanData,
  type AdminLoanDetailData,
  LOAN_LIMITS,
  LOAN_WRITE_OFF_REASONS,
  type LoanStatus,
  type LoanWriteOffReason,
} from '@bourse/protocol';
import { Alert, Badge, Button, Drawer, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { DoneNote, ErrorNote, ReasonDialog } from '../../app/ui.tsx';
import { useLoanDetail, useWriteOff } from './api.ts';
import { customerText, DocumentLinks, Facts, LoanStateBadge, Usdt, useLoanStaff } from './parts.tsx';

/** The states a loan can be written off in (the server's `LOAN_NOT_REPAYABLE` otherwise). */
export const WRITABLE_OFF: readonly LoanStatus[] = ['disbursed', 'repaying', 'overdue'];

function Terms({ detail }: { detail: AdminLoanDetailData }) {
  const { t } = useTranslation('adminLoans');
  const lang = useLang();
  const l = detail.loan;
  return (
    <Facts
      testId="loans-detail-terms"
      rows={[
        [t('detail.customer'), customerText(l)],
        [t('detail.state'), <LoanStateBadge key="s" state={l.state} />],
        [t('detail.product'), `${l.product_name} · ${l.lender}`],
        [t('queue.amount'), <Usdt key="a" value={l.amount} suffix />],
        [t('queue.term'), t('queue.days', { count: l.term_days })],
        [
          t('detail.rates'),
          t('detail.ratesText', { daily: l.daily_rate, free: l.interest_free_days, overdue: l.overdue_rate }),
        ],
        [t('detail.lateFee'), <Usdt key="f" value={l.late_fee} suffix />],
        [t('queue.apr'), `${l.apr}%`],
        [t('queue.totalRepayable'), <Usdt key="t" value={l.total_repayable} suffix />],
        [t('detail.costCap'), <Usdt key="c" value={l.cost_cap} suffix />],
        [t('detail.worstCase'), <Usdt key="w" value={l.worst_case_total} suffix />],
        [t('detail.disbursed'), formatTime(l.disbursed_at, lang)],
        [t('detail.due'), formatTime(l.due_at, lang)],
        [t('detail.daysPastDue'), String(l.days_past_due ?? 0)],
        [t('detail.charged'), <Usdt key="ch" value={l.charged} suffix />],
        [t('detail.repaid'), <Usdt key="r" value={l.repaid} suffix />],
        [t('detail.outstanding'), l.outstanding ? <Usdt key="o" value={l.outstanding.total} suffix /> : '—'],
        [t('detail.agreement'), `${l.agreement_version} · ${formatTime(l.agreement_accepted_at, lang)}`],
        [
          t('detail.decision'),
          l.decided_by
            ? `${l.decided_by} · ${formatTime(l.decided_at, lang)}${l.decision_note ? ` · ${l.decision_note}` : ''}`
            : '—',
        ],
        [t('detail.rejectReason'), l.reject_reason ? t(`rejectReason.${l.reject_reason}`) : '—'],
        [t('queue.previous'), l.previous_id ?? '—'],
        [t('detail.next'), l.next_id ?? '—'],
        [t('queue.proofs'), <DocumentLinks key="p" loanId={l.loan_id} fileIds={l.proof_ids} />],
      ]}
    />
  );
}

function Days({ detail }: { detail: AdminLoanDetailData }) {
  const { t } = useTranslation('adminLoans');
  const lang = useLang();
  if (detail.days.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {t('detail.noDays')}
      </Text>
    );
  return (
    <Table fz="xs" striped data-testid="loans-detail-days">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('detail.day')}</Table.Th>
          <Table.Th>{t('detail.kind')}</Table.Th>
          <Table.Th>{t('detail.interest')}</Table.Th>
          <Table.Th>{t('detail.fee')}</Table.Th>
          <Table.Th>{t('detail.posted')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {detail.days.map((d) => (
          <Table.Tr key={d.day} data-testid="loans-detail-day">
            <Table.Td>{d.day}</Table.Td>
            <Table.Td>
              {t(`dayKind.${d.kind}`)}
              {d.capped ? (
                <Badge ml={4} size="xs" color="orange">
                  {t('detail.capped')}
                </Badge>
              ) : null}
            </Table.Td>
            <Table.Td>
              <Usdt value={d.interest} />
            </Table.Td>
            <Table.Td>
              <Usdt value={d.fee} />
            </Table.Td>
            <Table.Td>{formatTime(d.posted_at, lang)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function Repayments({ detail }: { detail: AdminLoanDetailData }) {
  const { t } = useTranslation('adminLoans');
  const lang = useLang();
  if (detail.repayments.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {t('detail.noRepayments')}
      </Text>
    );
  return (
    <Table fz="xs" striped data-testid="loans-detail-repayments">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('repayments.id')}</Table.Th>
          <Table.Th>{t('repayments.method')}</Table.Th>
          <Table.Th>{t('repayments.state')}</Table.Th>
          <Table.Th>{t('repayments.amount')}</Table.Th>
          <Table.Th>{t('detail.paidParts')}</Table.Th>
          <Table.Th>{t('repayments.created')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {detail.repayments.map((r) => (
          <Table.Tr key={r.repayment_id}>
            <Table.Td>{r.repayment_id}</Table.Td>
            <Table.Td>{t(`method.${r.method}`)}</Table.Td>
            <Table.Td>{t(`repaymentState.${r.state}`)}</Table.Td>
            <Table.Td>
              <Usdt value={r.amount} />
            </Table.Td>
            <Table.Td>
              {r.paid
                ? t('detail.paidText', {
                    fees: r.paid.fees,
                    interest: r.paid.interest,
                    principal: r.paid.principal,
                  })
                : '—'}
            </Table.Td>
            <Table.Td>{formatTime(r.created_at, lang)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * Write-off with four eyes: "Write off" records the request (reason code and reason); a different
 * staff member confirms it ("Confirm write-off", disabled for the one who asked). Each in a dialog
 * naming the customer, what they owe now and the consequence.
 */
function WriteOff({ loan }: { loan: AdminLoanData }) {
  const { t } = useTranslation('adminLoans');
  const lang = useLang();
  const { staffId, canDecide } = useLoanStaff();
  const writeOff = useWriteOff();
  const [open, setOpen] = useState(false);
  const [code, setCode] = useState<LoanWriteOffReason | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const w = loan.write_off;
  const eligible = WRITABLE_OFF.includes(loan.state);
  const confirming = w !== null && w.written_off_at === null;
  const mine = confirming && w.requested_by === staffId;
  const customer = customerText(loan);
  const owed = loan.outstanding?.total ?? '0';
  return (
    <Stack gap="xs" data-testid="loans-write-off">
      {w ? (
        <Alert
          color={w.written_off_at ? 'pink' : 'yellow'}
          variant="light"
          p="xs"
          data-testid="loans-write-off-state"
        >
          {w.written_off_at
            ? t('writeOff.done', {
                amount: w.amount ?? '0',
                who: w.written_off_by ?? '',
                requester: w.requested_by,
                when: formatTime(w.written_off_at, lang),
                code: t(`writeOffReason.${w.reason_code}`),
                reason: w.reason,
              })
            : t('writeOff.requested', {
                who: w.requested_by,
                when: formatTime(w.requested_at, lang),
                code: t(`writeOffReason.${w.reason_code}`),
                reason: w.reason,
              })}
          {mine ? ` ${t('writeOff.notYou')}` : ''}
        </Alert>
      ) : null}
      <DoneNote onClose={() => setNote(null)} data-testid="loans-write-off-note">
        {note}
      </DoneNote>
      {eligible && canDecide ? (
        <Group>
          <Button
            color="red"
            variant="light"
            size="xs"
            disabled={mine}
            onClick={() => setOpen(true)}
            data-testid={confirming ? 'loans-write-off-confirm' : 'loans-write-off-request'}
          >
            {confirming ? t('writeOff.confirm') : t('writeOff.request')}
          </Button>
        </Group>
      ) : null}
      <ReasonDialog
        opened={open}
        size="lg"
        danger
        title={t(confirming ? 'writeOff.confirmTitle' : 'writeOff.requestTitle', { customer })}
        text={
          confirming && w
            ? t('writeOff.confirmText', {
                customer,
                amount: owed,
                lender: loan.lender,
                who: w.requested_by,
                code: t(`writeOffReason.${w.reason_code}`),
              })
            : t('writeOff.requestText', { customer, amount: owed, lender: loan.lender })
        }
        confirmLabel={confirming ? t('writeOff.confirm') : t('writeOff.request')}
        onClose={() => {
          setCode(null);
          setOpen(false);
        }}
        onSubmit={async (reason) => {
          if (reason.trim().length < LOAN_LIMITS.reasonMin)
            throw new Error(t('common.reasonShort', { min: LOAN_LIMITS.reasonMin }));
          const reasonCode = confirming && w ? w.reason_code : code;
          if (!reasonCode) throw new Error(t('decide.codeRequired'));
          const done = await writeOff.mutateAsync({
            id: loan.loan_id,
            reason_code: reasonCode,
            reason: reason.trim(),
          });
          setCode(null);
          setNote(
            done.state === 'written_off'
              ? t('writeOff.writtenOff', { customer, amount: done.write_off?.amount ?? owed })
              : t('writeOff.recorded', { customer }),
          );
        }}
      >
        {confirming ? null : (
          <Select
            label={t('writeOff.code')}
            data={LOAN_WRITE_OFF_REASONS.map((r) => ({ value: r, label: t(`writeOffReason.${r}`) }))}
            value={code}
            onChange={(v) => setCode(v as LoanWriteOffReason | null)}
            required
            comboboxProps={{ withinPortal: false }}
            data-testid="loans-write-off-code"
          />
        )}
      </ReasonDialog>
    </Stack>
  );
}

/** One loan or application: its terms, every charged day and every repayment; the write-off (four eyes). */
export function LoanDrawer({ loanId, onClose }: { loanId: string | null; onClose: () => void }) {
  const { t } = useTranslation('adminLoans');
  const detail = useLoanDetail(loanId);
  return (
    <Drawer opened={loanId !== null} onClose={onClose} position="right" size="xl" title={loanId ?? ''}>
      <Stack data-testid="loans-detail">
        <ErrorNote error={detail.error} />
        {detail.data ? (
          <>
            <Terms detail={detail.data} />
            <WriteOff loan={detail.data.loan} />
            <Title order={5}>{t('detail.days')}</Title>
            <Days detail={detail.data} />
            <Title order={5}>{t('detail.repayments')}</Title>
            <Repayments detail={detail.data} />
          </>
        ) : null}
      </Stack>
    </Drawer>
  );
}
