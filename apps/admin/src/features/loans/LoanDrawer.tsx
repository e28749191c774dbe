import type { AdminLoanDetailData } from '@bourse/protocol';
import { Badge, Drawer, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { ErrorNote } from '../../app/ui.tsx';
import { useLoanDetail } from './api.ts';
import { customerText, DocumentLinks, Facts, LoanStateBadge, Usdt } from './parts.tsx';

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

/** One loan or application: its terms, every charged day and every repayment. Read only. */
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
