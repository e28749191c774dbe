import {
  type AdminLoanQueueItem,
  LOAN_LIMITS,
  LOAN_REJECT_REASONS,
  type LoanRejectReason,
} from '@bourse/protocol';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Pagination,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { DoneNote, ErrorNote, ReasonDialog, useAmountText } from '../../app/ui.tsx';
import { PAGE_SIZE, useApprove, useLoanQueue, useLoanSettings, useReject } from './api.ts';
import { LoanDrawer } from './LoanDrawer.tsx';
import {
  customerText,
  DECIDE_PERMISSION,
  DocumentLinks,
  Facts,
  NoPermission,
  Usdt,
  useLoanStaff,
} from './parts.tsx';
import { withinLimit } from './productForm.ts';

type Deciding = { item: AdminLoanQueueItem; decision: 'approve' | 'reject' };

function ScoreBreakdown({ item }: { item: AdminLoanQueueItem }) {
  const { t } = useTranslation('adminLoans');
  return (
    <Table fz="xs" verticalSpacing={2} data-testid="loans-score-breakdown">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('queue.factor')}</Table.Th>
          <Table.Th>{t('queue.value')}</Table.Th>
          <Table.Th>{t('queue.points')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {item.score.breakdown.map((f) => (
          <Table.Tr key={f.factor} data-factor={f.factor}>
            <Table.Td>{t(`factor.${f.factor}`)}</Table.Td>
            <Table.Td>{`${f.value} ${t(`unit.${f.unit}`)}`}</Table.Td>
            <Table.Td>{`${f.points} / ${f.best_points}`}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** Four eyes: whether this application needs a second approver, who approved first, and whether I may approve. */
function FourEyes({ item, staffId }: { item: AdminLoanQueueItem; staffId: string | null }) {
  const { t } = useTranslation('adminLoans');
  if (!item.above_threshold) return null;
  return (
    <Alert color="orange" variant="light" p="xs" data-testid="loans-four-eyes">
      <Text size="sm">{t('queue.needsSecond')}</Text>
      {item.first_approved_by ? (
        <Text size="sm" data-testid="loans-first-approver">
          {t('queue.firstApprovedBy', { who: item.first_approved_by })}
          {item.first_approved_by === staffId ? ` ${t('queue.notYouAgain')}` : ''}
        </Text>
      ) : null}
    </Alert>
  );
}

function Application(props: {
  item: AdminLoanQueueItem;
  staffId: string | null;
  canDecide: boolean;
  onDecide: (d: Deciding) => void;
  onOpen: (id: string) => void;
}) {
  const { t } = useTranslation('adminLoans');
  const lang = useLang();
  const { item } = props;
  const overLimit = !withinLimit(item.amount, item.score.limit);
  const approvedByMe = item.first_approved_by !== null && item.first_approved_by === props.staffId;
  return (
    <Card withBorder data-testid="loans-application" data-loan={item.loan_id}>
      <Group justify="space-between" mb="xs">
        <Text fw={600}>{`${customerText(item)} · ${item.loan_id}`}</Text>
        <Text size="xs" c="dimmed">
          {formatTime(item.created_at, lang)}
        </Text>
      </Group>
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <Facts
          testId="loans-application-facts"
          rows={[
            [t('queue.verification'), t('queue.level', { level: item.applicant.verification_level })],
            [t('queue.accountAge'), t('queue.days', { count: item.applicant.account_age_days })],
            [t('queue.amount'), <Usdt key="a" value={item.amount} suffix />],
            [t('queue.term'), t('queue.days', { count: item.term_days })],
            [t('queue.product'), item.product_name],
            [t('queue.totalRepayable'), <Usdt key="t" value={item.total_repayable} suffix />],
            [t('queue.apr'), `${item.apr}%`],
            [t('queue.limit'), <Usdt key="l" value={item.score.limit} suffix />],
            [
              t('queue.previous'),
              item.previous_id ? (
                <Button
                  key="p"
                  size="compact-xs"
                  variant="subtle"
                  onClick={() => props.onOpen(item.previous_id ?? '')}
                  data-testid="loans-previous"
                >
                  {item.previous_id}
                </Button>
              ) : (
                t('common.none')
              ),
            ],
          ]}
        />
        <Stack gap={4}>
          <Text size="sm" data-testid="loans-score">
            {t('queue.score', {
              score: item.score.score,
              version: item.score.version,
              atApply: item.score_at_apply,
            })}
          </Text>
          <ScoreBreakdown item={item} />
        </Stack>
        <Stack gap="xs">
          <Text size="sm" c="dimmed">
            {t('queue.proofs')}
          </Text>
          <DocumentLinks loanId={item.loan_id} fileIds={item.proof_ids} />
          <FourEyes item={item} staffId={props.staffId} />
          {overLimit ? (
            <Alert color="red" variant="light" p="xs" data-testid="loans-over-limit">
              {t('queue.overLimit')}
            </Alert>
          ) : null}
          {props.canDecide ? (
            <Group gap="xs">
              <Button
                size="xs"
                disabled={overLimit || approvedByMe}
                onClick={() => props.onDecide({ item, decision: 'approve' })}
                data-testid="loans-approve"
              >
                {item.awaiting_second ? t('queue.confirmSecond') : t('queue.approve')}
              </Button>
              <Button
                size="xs"
                color="red"
                variant="light"
                onClick={() => props.onDecide({ item, decision: 'reject' })}
                data-testid="loans-reject"
              >
                {t('queue.reject')}
              </Button>
            </Group>
          ) : null}
        </Stack>
      </SimpleGrid>
    </Card>
  );
}

/** The sentence naming customer, amount and what the decision does. */
function useConsequence(): (d: Deciding) => string {
  const { t } = useTranslation('adminLoans');
  const amountText = useAmountText();
  return ({ item, decision }) => {
    const base = {
      customer: customerText(item),
      amount: amountText(item.amount, 'USDT'),
      days: item.term_days,
    };
    if (decision === 'reject') return t('decide.rejectText', base);
    if (item.above_threshold && !item.awaiting_second) return t('decide.firstText', base);
    return t('decide.approveText', {
      ...base,
      lender: item.lender,
      total: amountText(item.total_repayable, 'USDT'),
    });
  };
}

function DecisionDialog({
  deciding,
  onClose,
  onDone,
}: {
  deciding: Deciding | null;
  onClose: () => void;
  onDone: (text: string) => void;
}) {
  const { t } = useTranslation('adminLoans');
  const approve = useApprove();
  const reject = useReject();
  const consequence = useConsequence();
  const [code, setCode] = useState<LoanRejectReason | null>(null);
  const item = deciding?.item;
  const rejecting = deciding?.decision === 'reject';
  return (
    <ReasonDialog
      opened={deciding !== null}
      size="lg"
      title={deciding && item ? t(`decide.${deciding.decision}Title`, { customer: customerText(item) }) : ''}
      text={deciding ? consequence(deciding) : undefined}
      confirmLabel={rejecting ? t('queue.reject') : t('queue.approve')}
      danger={rejecting}
      onClose={() => {
        setCode(null);
        onClose();
      }}
      onSubmit={async (reason) => {
        if (!deciding || !item) return;
        if (reason.trim().length < LOAN_LIMITS.reasonMin)
          throw new Error(t('common.reasonShort', { min: LOAN_LIMITS.reasonMin }));
        if (rejecting) {
          if (!code) throw new Error(t('decide.codeRequired'));
          await reject.mutateAsync({ id: item.loan_id, reason_code: code, reason: reason.trim() });
          setCode(null);
          onDone(t('decide.rejected', { customer: customerText(item) }));
          return;
        }
        const loan = await approve.mutateAsync({ id: item.loan_id, reason: reason.trim() });
        onDone(
          loan.awaiting_second
            ? t('decide.firstRecorded', { customer: customerText(item) })
            : t('decide.approved', { customer: customerText(item) }),
        );
      }}
    >
      {rejecting ? (
        <Select
          label={t('decide.code')}
          data={LOAN_REJECT_REASONS.map((r) => ({ value: r, label: t(`rejectReason.${r}`) }))}
          value={code}
          onChange={(v) => setCode(v as LoanRejectReason | null)}
          required
          comboboxProps={{ withinPortal: false }}
          data-testid="loans-reject-code"
        />
      ) : null}
    </ReasonDialog>
  );
}

/**
 * Applications waiting for review, oldest first: applicant, amount, term, product, today's score with
 * its breakdown, proofs (each link audited), a re-application's previous one; approve (never above
 * the limit; four eyes above the threshold, never the same person twice) or reject with a code.
 */
export default function QueueScreen() {
  const { t } = useTranslation('adminLoans');
  const [page, setPage] = useState(1);
  const queue = useLoanQueue(page);
  const settings = useLoanSettings();
  const { staffId, canDecide } = useLoanStaff();
  const amountText = useAmountText();
  const [deciding, setDeciding] = useState<Deciding | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [shown, setShown] = useState<string | null>(null);
  const items = queue.data?.items ?? [];
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('queue.title')}</Title>
        <Button variant="default" size="xs" onClick={() => void queue.refetch()}>
          {t('common.refresh')}
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        {t('queue.intro')}
      </Text>
      {settings.data ? (
        <Badge variant="outline" data-testid="loans-threshold">
          {t('queue.threshold', { amount: amountText(settings.data.approval_threshold, 'USDT') })}
        </Badge>
      ) : null}
      {!canDecide ? <NoPermission permission={DECIDE_PERMISSION} /> : null}
      <DoneNote onClose={() => setNote(null)} data-testid="loans-note">
        {note}
      </DoneNote>
      <ErrorNote error={queue.error} />
      {items.length === 0 && !queue.isLoading ? (
        <Text size="sm" c="dimmed">
          {t('common.empty')}
        </Text>
      ) : null}
      {items.map((item) => (
        <Application
          key={item.loan_id}
          item={item}
          staffId={staffId}
          canDecide={canDecide}
          onDecide={setDeciding}
          onOpen={setShown}
        />
      ))}
      {(queue.data?.total ?? 0) > PAGE_SIZE ? (
        <Pagination total={Math.ceil((queue.data?.total ?? 0) / PAGE_SIZE)} value={page} onChange={setPage} />
      ) : null}
      <DecisionDialog deciding={deciding} onClose={() => setDeciding(null)} onDone={setNote} />
      <LoanDrawer loanId={shown} onClose={() => setShown(null)} />
    </Stack>
  );
}
