import { LOAN_STATES, type LoanData, type LoanStatus } from '@bourse/protocol';
import {
  Anchor,
  Button,
  Group,
  Loader,
  Pagination,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useToken } from '../../../lib/session.ts';
import { useLendMy, useLendMylist } from '../api.ts';
import { LOAN_ROUTES, pageCount } from '../logic.ts';
import {
  ErrorNote,
  Fact,
  LoanStateBadge,
  LoginPrompt,
  OwnFundsNote,
  Usdt,
  useLoanWords,
  WIDE,
} from './parts.tsx';

const PAGE_SIZE = 10;
type Filter = 'all' | LoanStatus;

/** The rejection's reason, the re-application links, the four-eyes wait. */
function LoanNotes({ loan }: { loan: LoanData }) {
  const { t } = useTranslation('loans');
  return (
    <Stack gap={2}>
      {loan.reject_reason ? (
        <Text size="xs" c="red" data-testid="loan-reject-reason" style={{ whiteSpace: 'normal' }}>
          {t('loans.rejectedBecause', {
            reason: String(t(`common:message.loanRejectReason.${loan.reject_reason}` as never)),
          })}
        </Text>
      ) : null}
      {loan.next_id ? (
        <Text size="xs" c="dimmed">
          {t('loans.reappliedAs', { id: loan.next_id })}
        </Text>
      ) : null}
      {loan.previous_id ? (
        <Text size="xs" c="dimmed">
          {t('loans.reapplyOf', { id: loan.previous_id })}
        </Text>
      ) : null}
      {loan.awaiting_second ? (
        <Text size="xs" c="dimmed">
          {t('loans.awaitingSecond')}
        </Text>
      ) : null}
    </Stack>
  );
}

function LoanActions({ loan, size }: { loan: LoanData; size: 'xs' | 'sm' }) {
  const { t } = useTranslation('loans');
  return (
    <Group gap={6} wrap="nowrap">
      <Button
        component={Link}
        to={LOAN_ROUTES.loan(loan.loan_id)}
        size={size}
        variant="light"
        data-testid="loan-details"
      >
        {t('loans.details')}
      </Button>
      {loan.state === 'rejected' ? (
        <Button
          component={Link}
          to={LOAN_ROUTES.reapply(loan.loan_id)}
          size={size}
          variant="default"
          data-testid="loan-reapply"
        >
          {t('loans.reapply')}
        </Button>
      ) : null}
    </Group>
  );
}

function LoanRow({ loan }: { loan: LoanData }) {
  const { t } = useTranslation('loans');
  const words = useLoanWords();
  return (
    <Table.Tr data-testid="loan-row" data-loan={loan.loan_id} data-state={loan.state}>
      <Table.Td>
        <Text size="sm" fw={700}>
          {loan.loan_id}
        </Text>
        <Text size="xs" c="dimmed">
          {loan.product_name} · {words.time(loan.created_at)}
        </Text>
      </Table.Td>
      <Table.Td ta="right">
        <Usdt value={loan.amount} testId="loan-amount" />
      </Table.Td>
      <Table.Td>{t('apply.termDays', { days: loan.term_days })}</Table.Td>
      <Table.Td style={{ whiteSpace: 'normal', maxWidth: 260 }}>
        <Stack gap={4}>
          <LoanStateBadge state={loan.state} />
          <LoanNotes loan={loan} />
        </Stack>
      </Table.Td>
      <Table.Td>{loan.due_at !== null ? words.date(loan.due_at) : t('common.none')}</Table.Td>
      <Table.Td ta="right" data-testid="loan-past-due">
        {loan.days_past_due ?? t('common.none')}
      </Table.Td>
      <Table.Td ta="right">
        <Usdt value={loan.outstanding?.total ?? null} testId="loan-outstanding" />
      </Table.Td>
      <Table.Td>
        <LoanActions loan={loan} size="xs" />
      </Table.Td>
    </Table.Tr>
  );
}

function LoanCard({ loan }: { loan: LoanData }) {
  const { t } = useTranslation('loans');
  const words = useLoanWords();
  return (
    <Paper
      withBorder
      radius="lg"
      p="md"
      data-testid="loan-row"
      data-loan={loan.loan_id}
      data-state={loan.state}
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Stack gap={0} miw={0}>
            <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
              {loan.loan_id}
            </Text>
            <Text size="xs" c="dimmed">
              {loan.product_name} · {words.time(loan.created_at)}
            </Text>
          </Stack>
          <LoanStateBadge state={loan.state} />
        </Group>
        <LoanNotes loan={loan} />
        <SimpleGrid cols={2} spacing="sm">
          <Fact label={t('loans.amount')}>
            <Usdt value={loan.amount} testId="loan-amount" />
          </Fact>
          <Fact label={t('loans.term')}>{t('apply.termDays', { days: loan.term_days })}</Fact>
          <Fact label={t('loans.due')}>
            {loan.due_at !== null ? words.date(loan.due_at) : t('common.none')}
          </Fact>
          <Fact label={t('loans.pastDue')}>
            <span data-testid="loan-past-due">{loan.days_past_due ?? t('common.none')}</span>
          </Fact>
          <Fact label={t('loans.outstanding')}>
            <Usdt value={loan.outstanding?.total ?? null} testId="loan-outstanding" />
          </Fact>
        </SimpleGrid>
        <LoanActions loan={loan} size="sm" />
      </Stack>
    </Paper>
  );
}

function LoanTable({ items }: { items: LoanData[] }) {
  const { t } = useTranslation('loans');
  return (
    <Table.ScrollContainer minWidth={1080}>
      <Table
        verticalSpacing="sm"
        fz="sm"
        highlightOnHover
        style={{ whiteSpace: 'nowrap' }}
        data-testid="loans-table"
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('loans.contract')}</Table.Th>
            <Table.Th ta="right">{t('loans.amount')}</Table.Th>
            <Table.Th>{t('loans.term')}</Table.Th>
            <Table.Th>{t('loans.state')}</Table.Th>
            <Table.Th>{t('loans.due')}</Table.Th>
            <Table.Th ta="right">{t('loans.pastDue')}</Table.Th>
            <Table.Th ta="right">{t('loans.outstanding')}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((loan) => (
            <LoanRow key={loan.loan_id} loan={loan} />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function Overview() {
  const { t } = useTranslation('loans');
  const my = useLendMy();
  if (my.isPending) return <Loader size="sm" />;
  if (my.isError) return <ErrorNote error={my.error} />;
  const data = my.data;
  return (
    <Paper withBorder radius="lg" p="md" data-testid="loans-overview">
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
        <Fact label={t('score.score')}>
          <Anchor component={Link} to={LOAN_ROUTES.score} data-testid="overview-score">
            {data.score ?? t('common.none')}
          </Anchor>
        </Fact>
        <Fact label={t('score.limit')}>
          <Usdt value={data.limit} testId="overview-limit" />
        </Fact>
        <Fact label={t('loans.owed')}>
          <Usdt value={data.outstanding} testId="overview-owed" />
        </Fact>
        <Fact label={t('loans.open')}>
          {data.open ? (
            <Anchor component={Link} to={LOAN_ROUTES.loan(data.open.loan_id)} data-testid="overview-open">
              {data.open.loan_id}
            </Anchor>
          ) : (
            <Text size="sm">{t('loans.noOpen')}</Text>
          )}
        </Fact>
      </SimpleGrid>
    </Paper>
  );
}

/** /repayment2: my loans and applications (lendMy overview + lendMylist), each state with its figures. */
export function LoansPage() {
  const { t } = useTranslation('loans');
  const token = useToken();
  const words = useLoanWords();
  const wide = useMediaQuery(WIDE, window.matchMedia(WIDE).matches, { getInitialValueInEffect: false });
  const [filter, setFilter] = useState<Filter>('all');
  const [page, setPage] = useState(1);
  const list = useLendMylist({ ...(filter !== 'all' ? { state: filter } : {}), page, page_size: PAGE_SIZE });
  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;
  return (
    <Stack gap="md" py={{ base: 'md', sm: 'xl' }} data-testid="loans-list-page">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Title order={1} fz={{ base: 22, sm: 28 }}>
          {t('loans.title')}
        </Title>
        <Button component={Link} to={LOAN_ROUTES.apply} size="xs" variant="light">
          {t('nav.apply')}
        </Button>
      </Group>
      <OwnFundsNote />
      {token === null ? (
        <LoginPrompt />
      ) : (
        <>
          <Overview />
          <Paper withBorder={wide} radius="lg" p={wide ? 'md' : 0}>
            <Stack gap="md">
              <Select
                w={220}
                value={filter}
                onChange={(v) => {
                  if (v) {
                    setFilter(v as Filter);
                    setPage(1);
                  }
                }}
                data={[
                  { value: 'all', label: t('loans.all') },
                  ...LOAN_STATES.map((s) => ({ value: s, label: words.state(s) })),
                ]}
                allowDeselect={false}
                aria-label={t('loans.state')}
                data-testid="loans-filter"
              />
              {list.isPending ? (
                <Loader size="sm" />
              ) : list.isError ? (
                <ErrorNote error={list.error} retry={() => void list.refetch()} />
              ) : items.length === 0 ? (
                <Text size="sm" c="dimmed" ta="center" py="lg" data-testid="loans-empty">
                  {t('loans.empty')}
                </Text>
              ) : wide ? (
                <LoanTable items={items} />
              ) : (
                <Stack gap="sm" data-testid="loans-cards">
                  {items.map((loan) => (
                    <LoanCard key={loan.loan_id} loan={loan} />
                  ))}
                </Stack>
              )}
              <Group justify="space-between" wrap="wrap">
                <Text size="sm" c="dimmed" data-testid="loans-total">
                  {t('loans.total', { total })}
                </Text>
                <Pagination total={pageCount(total, PAGE_SIZE)} value={page} onChange={setPage} size="sm" />
              </Group>
            </Stack>
          </Paper>
        </>
      )}
    </Stack>
  );
}
