import type { AdminSigninFundingData, SigninFundingState } from '@bourse/protocol';
import { SIGNIN_BUDGET_ACCOUNT, SIGNIN_LIMITS } from '@bourse/protocol';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  ScrollArea,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { hasPermission, useStaffMe } from '../../app/session.ts';
import { Amount, DoneNote, ErrorNote, Figure, ReasonDialog, useAmountText } from '../../app/ui.tsx';
import {
  useDecideFunding,
  useFundingRequests,
  usePayouts,
  useRequestFunding,
  useSigninBudget,
} from './api.ts';

const REQUEST_COLOR: Record<SigninFundingState, string> = {
  pending: 'yellow',
  approved: 'teal',
  rejected: 'red',
};

function Stat({ label, children, testId }: { label: string; children: React.ReactNode; testId: string }) {
  return (
    <Card withBorder p="sm" data-testid={testId}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700}>{children}</Text>
    </Card>
  );
}

function Balance() {
  const { t } = useTranslation('adminSignin');
  const budget = useSigninBudget();
  const b = budget.data;
  if (!b) return <ErrorNote error={budget.error} />;
  return (
    <SimpleGrid cols={{ base: 2, md: 5 }} data-testid="signin-budget">
      <Stat label={t('budget.balance')} testId="signin-budget-balance">
        <Amount value={b.balance} currency={b.currency} suffix />
      </Stat>
      <Stat label={t('budget.funded')} testId="signin-budget-funded">
        <Amount value={b.funded_total} currency={b.currency} suffix />
      </Stat>
      <Stat label={t('budget.paid')} testId="signin-budget-paid">
        <Amount value={b.paid_total} currency={b.currency} suffix />
      </Stat>
      <Stat label={t('budget.paidCount')} testId="signin-budget-count">
        <Figure>{b.paid_count}</Figure>
      </Stat>
      <Stat label={t('budget.pending')} testId="signin-budget-pending">
        <Figure>{b.pending}</Figure>
      </Stat>
    </SimpleGrid>
  );
}

/** Ask for money into the budget: amount and reason; another staff member decides. */
function RequestForm({ currency }: { currency: string }) {
  const { t } = useTranslation('adminSignin');
  const request = useRequestFunding();
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [done, setDone] = useState('');
  const ready = /^\d+(\.\d+)?$/.test(amount.trim()) && reason.trim().length >= SIGNIN_LIMITS.reasonMin;
  return (
    <Card withBorder data-testid="signin-request-form">
      <Stack>
        <Title order={5}>{t('budget.request')}</Title>
        <Group align="flex-end" grow>
          <TextInput
            label={t('budget.amount', { currency })}
            value={amount}
            inputMode="decimal"
            maxLength={40}
            onChange={(e) => setAmount(e.currentTarget.value)}
            data-testid="signin-request-amount"
          />
          <Textarea
            label={t('budget.reason')}
            value={reason}
            autosize
            maxLength={SIGNIN_LIMITS.reasonMax}
            onChange={(e) => setReason(e.currentTarget.value)}
            data-testid="signin-request-reason"
          />
        </Group>
        <ErrorNote error={request.error} />
        <DoneNote onClose={() => setDone('')} data-testid="signin-requested">
          {done}
        </DoneNote>
        <Group justify="flex-end">
          <Button
            disabled={!ready}
            loading={request.isPending}
            data-testid="signin-request-send"
            onClick={() =>
              request.mutate(
                { amount: amount.trim(), reason: reason.trim() },
                {
                  onSuccess: () => {
                    setAmount('');
                    setReason('');
                    setDone(t('budget.requested'));
                  },
                },
              )
            }
          >
            {t('budget.send')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

type Deciding = { r: AdminSigninFundingData; decision: 'approve' | 'reject' };

function RequestRow({
  r,
  own,
  canDecide,
  onDecide,
}: {
  r: AdminSigninFundingData;
  own: boolean;
  canDecide: boolean;
  onDecide: (d: Deciding) => void;
}) {
  const { t } = useTranslation('adminSignin');
  const lang = useLang();
  return (
    <Table.Tr data-testid="signin-request-row" data-state={r.state}>
      <Table.Td>
        <Figure>{formatTime(r.requested_at, lang)}</Figure>
      </Table.Td>
      <Table.Td>
        <Amount value={r.amount} currency={r.currency} suffix />
      </Table.Td>
      <Table.Td>{r.requested_by}</Table.Td>
      <Table.Td style={{ maxWidth: 260, overflowWrap: 'anywhere' }}>{r.reason}</Table.Td>
      <Table.Td>
        <Badge color={REQUEST_COLOR[r.state]} variant="light">
          {t(`requests.${r.state}`)}
        </Badge>
      </Table.Td>
      <Table.Td style={{ overflowWrap: 'anywhere' }}>
        {r.decided_by ? `${r.decided_by} · ${r.decision_reason ?? ''}` : '—'}
      </Table.Td>
      <Table.Td>
        {r.state !== 'pending' ? null : own ? (
          <Text size="xs" c="orange" data-testid="signin-own-request">
            {t('requests.own')}
          </Text>
        ) : canDecide ? (
          <Group gap={4} wrap="nowrap">
            <Button
              size="compact-xs"
              onClick={() => onDecide({ r, decision: 'approve' })}
              data-testid="signin-approve"
            >
              {t('requests.approve')}
            </Button>
            <Button
              size="compact-xs"
              color="red"
              variant="light"
              onClick={() => onDecide({ r, decision: 'reject' })}
              data-testid="signin-reject"
            >
              {t('requests.reject')}
            </Button>
          </Group>
        ) : null}
      </Table.Td>
    </Table.Tr>
  );
}

function Requests() {
  const { t } = useTranslation('adminSignin');
  const me = useStaffMe();
  const requests = useFundingRequests();
  const decide = useDecideFunding();
  const amountText = useAmountText();
  const [deciding, setDeciding] = useState<Deciding | null>(null);
  const canDecide = hasPermission(me.data, 'adjustments.approve');
  const items = requests.data?.items ?? [];
  return (
    <Card withBorder data-testid="signin-requests">
      <Stack>
        <Title order={5}>{t('requests.title')}</Title>
        <ErrorNote error={requests.error} />
        {items.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('requests.empty')}
          </Text>
        ) : (
          <ScrollArea>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('requests.requestedAt')}</Table.Th>
                  <Table.Th>{t('requests.amount')}</Table.Th>
                  <Table.Th>{t('requests.requestedBy')}</Table.Th>
                  <Table.Th>{t('requests.reason')}</Table.Th>
                  <Table.Th>{t('requests.state')}</Table.Th>
                  <Table.Th>{t('requests.decidedBy')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((r) => (
                  <RequestRow
                    key={r.request_id}
                    r={r}
                    own={r.requested_by === me.data?.staff_id}
                    canDecide={canDecide}
                    onDecide={setDeciding}
                  />
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        )}
      </Stack>
      <ReasonDialog
        opened={deciding !== null}
        title={t('requests.decisionTitle')}
        text={
          deciding
            ? t('requests.decisionBody', {
                amount: amountText(deciding.r.amount),
                currency: deciding.r.currency,
                account: SIGNIN_BUDGET_ACCOUNT,
                who: deciding.r.requested_by,
                reason: deciding.r.reason,
              })
            : undefined
        }
        confirmLabel={deciding?.decision === 'reject' ? t('requests.reject') : t('requests.approve')}
        danger={deciding?.decision === 'reject'}
        onClose={() => setDeciding(null)}
        onSubmit={(reason) =>
          deciding
            ? decide.mutateAsync({
                id: deciding.r.request_id,
                decision: deciding.decision,
                reason: reason.trim(),
              })
            : Promise.resolve()
        }
      />
    </Card>
  );
}

function Payouts() {
  const { t } = useTranslation('adminSignin');
  const lang = useLang();
  const payouts = usePayouts();
  const items = payouts.data?.items ?? [];
  return (
    <Card withBorder data-testid="signin-payouts">
      <Stack>
        <Title order={5}>{t('payouts.title')}</Title>
        <ErrorNote error={payouts.error} />
        {items.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('payouts.empty')}
          </Text>
        ) : (
          <ScrollArea>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('payouts.at')}</Table.Th>
                  <Table.Th>{t('payouts.uid')}</Table.Th>
                  <Table.Th>{t('payouts.day')}</Table.Th>
                  <Table.Th>{t('payouts.streak')}</Table.Th>
                  <Table.Th>{t('payouts.amount')}</Table.Th>
                  <Table.Th>{t('payouts.book')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((p) => (
                  <Table.Tr key={p.entry_id} data-testid="signin-payout-row">
                    <Table.Td>
                      <Figure>{formatTime(p.at, lang)}</Figure>
                    </Table.Td>
                    <Table.Td>
                      <Figure>{p.uid}</Figure>
                    </Table.Td>
                    <Table.Td>
                      <Figure>{p.day}</Figure>
                    </Table.Td>
                    <Table.Td>
                      <Figure>{p.streak}</Figure>
                    </Table.Td>
                    <Table.Td>
                      <Amount value={p.amount} currency={p.currency} suffix />
                    </Table.Td>
                    <Table.Td>{t(`payouts.${p.book}`)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        )}
      </Stack>
    </Card>
  );
}

/**
 * The sign-in budget (`/admin/signin/budget`, `ledger.verify`): the balance of
 * `marketing_budget_signin` and what went through it, funding requests (ask with
 * `adjustments.create`; approve or reject — never one's own — with `adjustments.approve`), payouts.
 */
export default function BudgetScreen() {
  const { t } = useTranslation('adminSignin');
  const me = useStaffMe();
  const budget = useSigninBudget();
  return (
    <Stack gap="md" data-testid="signin-budget-screen">
      <Title order={2}>{t('budget.title')}</Title>
      <Alert color="blue" variant="light">
        {t('budget.intro', { account: SIGNIN_BUDGET_ACCOUNT })}
      </Alert>
      <Balance />
      {hasPermission(me.data, 'adjustments.create') ? (
        <RequestForm currency={budget.data?.currency ?? 'USDT'} />
      ) : null}
      <Requests />
      <Payouts />
    </Stack>
  );
}
