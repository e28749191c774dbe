import type { LoanDayData, LoanDetailData, LoanRepaymentData } from '@bourse/protocol';
import {
  Alert,
  Anchor,
  Button,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ApiError } from '../../../lib/api.ts';
import { useToken } from '../../../lib/session.ts';
import { useLoan, useWithdrawLoan } from '../api.ts';
import { isRepayable, LOAN_ROUTES, planOf } from '../logic.ts';
import {
  ErrorNote,
  Fact,
  Line,
  LoanStateBadge,
  LoginPrompt,
  OwnFundsNote,
  Usdt,
  useLoanWords,
  WIDE,
} from './parts.tsx';
import { RepayPanel } from './RepayPanel.tsx';

function Terms({ detail }: { detail: LoanDetailData }) {
  const { t } = useTranslation('loans');
  const words = useLoanWords();
  const loan = detail.loan;
  const none = t('common.none');
  return (
    <Paper withBorder radius="lg" p="md" data-testid="loan-terms">
      <Stack gap="sm">
        <Title order={2} fz="lg">
          {t('detail.terms')}
        </Title>
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
          <Fact label={t('detail.amount')}>
            <Usdt value={loan.amount} />
          </Fact>
          <Fact label={t('detail.termDays')}>{t('apply.termDays', { days: loan.term_days })}</Fact>
          <Fact label={t('detail.apr')}>
            <Text fz="lg" fw={800} data-testid="loan-apr">
              {words.percent(loan.apr)}
            </Text>
          </Fact>
          <Fact label={t('detail.dailyRate')}>
            {t('common.perDay', { rate: words.percent(loan.daily_rate) })}
          </Fact>
          <Fact label={t('detail.interest')}>
            <Usdt value={loan.interest} />
          </Fact>
          <Fact label={t('detail.total')}>
            <Usdt value={loan.total_repayable} />
          </Fact>
          <Fact label={t('detail.overdueRate')}>
            {t('common.perDay', { rate: words.percent(loan.overdue_rate) })}
          </Fact>
          <Fact label={t('detail.lateFee')}>
            <Usdt value={loan.late_fee} />
          </Fact>
          <Fact label={t('detail.costCap')}>
            <Usdt value={loan.cost_cap} />
          </Fact>
          <Fact label={t('detail.worstCase')}>
            <Usdt value={loan.worst_case_total} />
          </Fact>
          <Fact label={t('detail.lender')}>{loan.lender}</Fact>
          <Fact label={t('detail.disbursedAt')}>
            {loan.disbursed_at !== null ? words.time(loan.disbursed_at) : none}
          </Fact>
          <Fact label={t('detail.dueAt')}>
            <span data-testid="loan-due">{loan.due_at !== null ? words.time(loan.due_at) : none}</span>
          </Fact>
          <Fact label={t('detail.daysElapsed')}>{loan.days_elapsed ?? none}</Fact>
          <Fact label={t('detail.daysPastDue')}>
            <span data-testid="loan-days-past-due">{loan.days_past_due ?? none}</span>
          </Fact>
          <Fact label={t('detail.charged')}>
            <Usdt value={loan.charged} testId="loan-charged" />
          </Fact>
          <Fact label={t('detail.repaid')}>
            <Usdt value={loan.repaid} testId="loan-repaid" />
          </Fact>
          {loan.cleared_at !== null ? (
            <Fact label={t('detail.clearedAt')}>
              <span data-testid="loan-cleared">
                {words.time(loan.cleared_at)}
                {loan.cleared_late ? ` · ${t('detail.clearedLate')}` : ''}
              </span>
            </Fact>
          ) : null}
        </SimpleGrid>
        <Text size="xs" c="dimmed">
          {t('detail.agreement', {
            version: loan.agreement_version,
            date: words.time(loan.agreement_accepted_at),
          })}
        </Text>
      </Stack>
    </Paper>
  );
}

function Outstanding({ detail }: { detail: LoanDetailData }) {
  const { t } = useTranslation('loans');
  const words = useLoanWords();
  const o = detail.loan.outstanding;
  if (o === null) return null;
  return (
    <Paper withBorder radius="lg" p="md" data-testid="loan-outstanding">
      <Stack gap={6}>
        <Title order={2} fz="lg">
          {t('detail.outstandingTitle')}
        </Title>
        <Line label={t('detail.fees')}>
          <Usdt value={o.fees} testId="outstanding-fees" />
        </Line>
        <Line label={t('detail.dayInterest')}>
          <Usdt value={o.interest} testId="outstanding-interest" />
        </Line>
        <Line label={t('detail.principal')}>
          <Usdt value={o.principal} testId="outstanding-principal" />
        </Line>
        <Line label={t('detail.outstandingTotal')}>
          <Usdt value={o.total} fw={800} testId="outstanding-total" />
        </Line>
        {detail.payoff ? (
          <Text size="sm" data-testid="loan-payoff">
            <b>{t('detail.payoffTitle')}:</b>{' '}
            {t('detail.payoff', {
              total: words.usdt(detail.payoff.total),
              interest: words.usdt(detail.payoff.interest_to_date),
              saved: words.usdt(detail.payoff.interest_saved),
            })}
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}

function Plan({ detail }: { detail: LoanDetailData }) {
  const { t } = useTranslation('loans');
  const words = useLoanWords();
  const loan = detail.loan;
  const plan = planOf(loan);
  return (
    <Stack gap={4} data-testid="loan-plan">
      <Text fw={700}>{t('detail.planTitle')}</Text>
      <Text size="sm">
        {plan.freeDays > 0 ? t('detail.planFree', { days: plan.freeDays }) : t('detail.planNoFree')}
      </Text>
      {plan.interestFrom !== null ? (
        <Text size="sm">
          {t('detail.planInterest', {
            from: plan.interestFrom,
            to: plan.interestTo,
            rate: words.percent(loan.daily_rate),
          })}
        </Text>
      ) : null}
      {loan.due_at !== null ? (
        <Text size="sm">{t('detail.planDue', { term: plan.term, date: words.time(loan.due_at) })}</Text>
      ) : null}
      <Text size="sm">
        {t('detail.planOverdue', { rate: words.percent(loan.overdue_rate), fee: words.usdt(loan.late_fee) })}
      </Text>
    </Stack>
  );
}

function DayRows({ days, wide }: { days: LoanDayData[]; wide: boolean }) {
  const { t } = useTranslation('loans');
  const words = useLoanWords();
  if (days.length === 0)
    return (
      <Text size="sm" c="dimmed" data-testid="loan-no-days">
        {t('detail.noDays')}
      </Text>
    );
  const kind = (d: LoanDayData) => t(d.kind === 'interest' ? 'detail.kindInterest' : 'detail.kindOverdue');
  if (!wide) {
    return (
      <Stack gap="xs">
        {days.map((d) => (
          <Paper key={d.day} withBorder p="sm" radius="md" data-testid="loan-day" data-kind={d.kind}>
            <Group justify="space-between">
              <Text size="sm" fw={700}>
                {t('detail.day')} {d.day} · {kind(d)}
              </Text>
              {d.capped ? (
                <Text size="xs" c="orange">
                  {t('detail.capped')}
                </Text>
              ) : null}
            </Group>
            <Line label={t('detail.dayInterest')}>
              <Usdt value={d.interest} />
            </Line>
            <Line label={t('detail.dayFee')}>
              <Usdt value={d.fee} />
            </Line>
          </Paper>
        ))}
      </Stack>
    );
  }
  return (
    <Table fz="sm" data-testid="loan-days-table">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('detail.day')}</Table.Th>
          <Table.Th>{t('detail.kind')}</Table.Th>
          <Table.Th ta="right">{t('detail.dayInterest')}</Table.Th>
          <Table.Th ta="right">{t('detail.dayFee')}</Table.Th>
          <Table.Th>{t('detail.capped')}</Table.Th>
          <Table.Th>{t('detail.posted')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {days.map((d) => (
          <Table.Tr key={d.day} data-testid="loan-day" data-kind={d.kind}>
            <Table.Td>{d.day}</Table.Td>
            <Table.Td>{kind(d)}</Table.Td>
            <Table.Td ta="right">
              <Usdt value={d.interest} />
            </Table.Td>
            <Table.Td ta="right">
              <Usdt value={d.fee} />
            </Table.Td>
            <Table.Td>{d.capped ? t('detail.capped') : t('common.none')}</Table.Td>
            <Table.Td>{words.time(d.posted_at)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function RepaymentRows({ items }: { items: LoanRepaymentData[] }) {
  const { t } = useTranslation('loans');
  const words = useLoanWords();
  if (items.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {t('detail.noRepayments')}
      </Text>
    );
  return (
    <Stack gap="xs">
      {items.map((r) => (
        <Paper
          key={r.repayment_id}
          withBorder
          p="sm"
          radius="md"
          data-testid="loan-repayment"
          data-state={r.state}
          data-method={r.method}
        >
          <Group justify="space-between" wrap="wrap">
            <Text size="sm" fw={700}>
              {t(r.method === 'balance' ? 'detail.methodBalance' : 'detail.methodVoucher')} ·{' '}
              {words.time(r.created_at)}
            </Text>
            <Text size="sm">{t(`detail.repaymentState.${r.state}`)}</Text>
          </Group>
          <Usdt value={r.amount} />
          {r.paid ? (
            <Text size="xs" c="dimmed">
              {t('detail.paid')}:{' '}
              {t('detail.paidParts', {
                fees: words.usdt(r.paid.fees),
                interest: words.usdt(r.paid.interest),
                principal: words.usdt(r.paid.principal),
              })}
            </Text>
          ) : null}
        </Paper>
      ))}
    </Stack>
  );
}

function StateNote({ detail }: { detail: LoanDetailData }) {
  const { t } = useTranslation('loans');
  const withdraw = useWithdrawLoan();
  const loan = detail.loan;
  if (loan.state === 'rejected') {
    return (
      <Alert color="orange" variant="light" data-testid="loan-rejected">
        <Stack gap={6}>
          <Text size="sm" fw={700}>
            {t('detail.rejectedTitle')}
          </Text>
          {loan.reject_reason ? (
            <Text size="sm">
              {String(t(`common:message.loanRejectReason.${loan.reject_reason}` as never))}
            </Text>
          ) : null}
          <Group>
            <Button
              component={Link}
              to={LOAN_ROUTES.reapply(loan.loan_id)}
              size="xs"
              data-testid="loan-reapply"
            >
              {t('loans.reapply')}
            </Button>
          </Group>
        </Stack>
      </Alert>
    );
  }
  if (loan.state !== 'unreviewed') return null;
  return (
    <Alert color="blue" variant="light" data-testid="loan-unreviewed">
      <Stack gap={6}>
        <Text size="sm" fw={700}>
          {t('detail.unreviewedTitle')}
        </Text>
        <Text size="sm">{t('detail.unreviewedBody')}</Text>
        {loan.awaiting_second ? <Text size="sm">{t('loans.awaitingSecond')}</Text> : null}
        <Group>
          <Button
            size="xs"
            color="red"
            variant="light"
            loading={withdraw.isPending}
            onClick={() => withdraw.mutate(loan.loan_id)}
            data-testid="loan-withdraw"
          >
            {t('apply.withdraw')}
          </Button>
        </Group>
        {withdraw.error instanceof ApiError ? <ErrorNote error={withdraw.error} /> : null}
      </Stack>
    </Alert>
  );
}

function LoanView({ detail }: { detail: LoanDetailData }) {
  const { t } = useTranslation('loans');
  const wide = useMediaQuery(WIDE, window.matchMedia(WIDE).matches, { getInitialValueInEffect: false });
  return (
    <Stack gap="md">
      <StateNote detail={detail} />
      <SimpleGrid cols={{ base: 1, md: isRepayable(detail.loan.state) ? 2 : 1 }} spacing="md">
        <Outstanding detail={detail} />
        {isRepayable(detail.loan.state) ? <RepayPanel detail={detail} /> : null}
      </SimpleGrid>
      <Terms detail={detail} />
      <Paper withBorder radius="lg" p="md">
        <Stack gap="md">
          <Plan detail={detail} />
          <Text fw={700}>{t('detail.daysTitle')}</Text>
          <DayRows days={detail.days} wide={wide} />
          <Text fw={700}>{t('detail.repaymentsTitle')}</Text>
          <RepaymentRows items={detail.repayments} />
        </Stack>
      </Paper>
    </Stack>
  );
}

/** /repaymentNew?loan_id=: one loan — state, outstanding parts, the schedule and every entry, repaying. */
export function LoanPage() {
  const { t } = useTranslation('loans');
  const token = useToken();
  const [params] = useSearchParams();
  const loanId = params.get('loan_id');
  const loan = useLoan(loanId);
  return (
    <Stack gap="md" py={{ base: 'md', sm: 'xl' }} data-testid="loans-detail-page">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Group gap="sm" miw={0}>
          {/* The contract number is one long word: it breaks rather than widen a phone's page. */}
          <Title order={1} fz={{ base: 22, sm: 28 }} style={{ overflowWrap: 'anywhere' }}>
            {t('detail.title', { id: loanId ?? '' })}
          </Title>
          {loan.data ? <LoanStateBadge state={loan.data.loan.state} /> : null}
        </Group>
        <Anchor component={Link} to={LOAN_ROUTES.list} size="sm">
          {t('detail.back')}
        </Anchor>
      </Group>
      <OwnFundsNote />
      {token === null ? (
        <LoginPrompt />
      ) : !loanId ? (
        <Text c="dimmed" data-testid="loan-not-found">
          {t('detail.notFound')}
        </Text>
      ) : loan.isPending ? (
        <Loader size="sm" />
      ) : loan.isError ? (
        <ErrorNote error={loan.error} retry={() => void loan.refetch()} />
      ) : (
        <LoanView detail={loan.data} />
      )}
    </Stack>
  );
}
