import { type AdminLoanData, LOAN_STATES, type LoanStatus } from '@bourse/protocol';
import {
  Alert,
  Button,
  Card,
  Group,
  Pagination,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { ErrorNote, Figure } from '../../app/ui.tsx';
import { PAGE_SIZE, PORTFOLIO_ROWS_MAX, useLoans, usePortfolioLoans } from './api.ts';
import { LoanDrawer } from './LoanDrawer.tsx';
import { customerText, LoanStateBadge, Usdt } from './parts.tsx';
import { portfolioOf } from './portfolio.ts';

function PortfolioCards({ items, total }: { items: AdminLoanData[]; total: number }) {
  const { t } = useTranslation('adminLoans');
  const p = portfolioOf(items);
  return (
    <Stack gap="xs" data-testid="loans-portfolio">
      {total > items.length ? (
        <Alert color="orange" variant="light" p="xs" data-testid="loans-portfolio-partial">
          {t('portfolio.partial', { shown: items.length, total, max: PORTFOLIO_ROWS_MAX })}
        </Alert>
      ) : null}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder>
          <Text fw={600} mb="xs">
            {t('portfolio.owed', { count: p.open })}
          </Text>
          <Table fz="sm" withRowBorders={false} data-testid="loans-portfolio-owed">
            <Table.Tbody>
              {(['principal', 'interest', 'fees', 'total'] as const).map((k) => (
                <Table.Tr key={k} data-part={k}>
                  <Table.Td c="dimmed">{t(`portfolio.${k}`)}</Table.Td>
                  <Table.Td>
                    <Usdt value={p.owed[k]} suffix />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Card>
        <Card withBorder>
          <Text fw={600} mb="xs">
            {t('portfolio.income')}
          </Text>
          <Table fz="sm" withRowBorders={false} data-testid="loans-portfolio-income">
            <Table.Tbody>
              {(['charged', 'received', 'owed'] as const).map((k) => (
                <Table.Tr key={k} data-part={k}>
                  <Table.Td c="dimmed">{t(`portfolio.income_${k}`)}</Table.Td>
                  <Table.Td>
                    <Usdt value={p.income[k]} suffix />
                  </Table.Td>
                </Table.Tr>
              ))}
              <Table.Tr data-part="disbursed">
                <Table.Td c="dimmed">{t('portfolio.disbursed')}</Table.Td>
                <Table.Td>
                  <Usdt value={p.disbursed} suffix />
                </Table.Td>
              </Table.Tr>
              <Table.Tr data-part="repaid">
                <Table.Td c="dimmed">{t('portfolio.repaid')}</Table.Td>
                <Table.Td>
                  <Usdt value={p.repaid} suffix />
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          <Text size="xs" c="dimmed">
            {t('portfolio.incomeNote')}
          </Text>
        </Card>
      </SimpleGrid>
      <Card withBorder>
        <Text fw={600} mb="xs">
          {t('portfolio.buckets')}
        </Text>
        <Table fz="sm" data-testid="loans-portfolio-buckets">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('portfolio.daysPastDue')}</Table.Th>
              <Table.Th>{t('portfolio.loans')}</Table.Th>
              <Table.Th>{t('portfolio.principal')}</Table.Th>
              <Table.Th>{t('portfolio.interest')}</Table.Th>
              <Table.Th>{t('portfolio.fees')}</Table.Th>
              <Table.Th>{t('portfolio.total')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {p.buckets.map((b) => (
              <Table.Tr key={b.bucket} data-bucket={b.bucket} data-count={b.count}>
                <Table.Td>{t(`bucket.${b.bucket}`)}</Table.Td>
                <Table.Td>
                  <Figure>{b.count}</Figure>
                </Table.Td>
                <Table.Td>
                  <Usdt value={b.owed.principal} />
                </Table.Td>
                <Table.Td>
                  <Usdt value={b.owed.interest} />
                </Table.Td>
                <Table.Td>
                  <Usdt value={b.owed.fees} />
                </Table.Td>
                <Table.Td>
                  <Usdt value={b.owed.total} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Card>
    </Stack>
  );
}

function LoanRow({ loan, onOpen }: { loan: AdminLoanData; onOpen: () => void }) {
  const { t } = useTranslation('adminLoans');
  const lang = useLang();
  return (
    <Table.Tr data-testid="loans-loan" data-loan={loan.loan_id} data-state={loan.state}>
      <Table.Td>
        <Text size="sm">{loan.loan_id}</Text>
        <Text size="xs" c="dimmed">
          {customerText(loan)}
        </Text>
      </Table.Td>
      <Table.Td>
        <LoanStateBadge state={loan.state} />
      </Table.Td>
      <Table.Td>{loan.product_name}</Table.Td>
      <Table.Td>
        <Usdt value={loan.amount} />
      </Table.Td>
      <Table.Td>
        <Usdt value={loan.outstanding?.principal} />
      </Table.Td>
      <Table.Td>
        <Usdt value={loan.outstanding?.interest} />
      </Table.Td>
      <Table.Td>
        <Usdt value={loan.outstanding?.fees} />
      </Table.Td>
      <Table.Td data-testid="loans-loan-dpd">
        <Figure>{loan.days_past_due ?? '—'}</Figure>
      </Table.Td>
      <Table.Td>
        <Figure>{formatTime(loan.due_at, lang)}</Figure>
      </Table.Td>
      <Table.Td>
        <Button size="compact-xs" variant="subtle" onClick={onOpen} data-testid="loans-loan-open">
          {t('common.details')}
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * The loan book: the portfolio summed from the server's list (what is owed, overdue buckets, income),
 * then every loan and application filtered by state or UID, each opening its schedule and entries.
 * Read only: the server has no call that edits a loan's figures, and none that writes a loan off.
 */
export default function LoansScreen() {
  const { t } = useTranslation('adminLoans');
  const [state, setState] = useState<LoanStatus | ''>('');
  const [uid, setUid] = useState('');
  const [page, setPage] = useState(1);
  const [shown, setShown] = useState<string | null>(null);
  const all = usePortfolioLoans();
  const loans = useLoans({
    state: state || undefined,
    uid: uid.trim() || undefined,
    page,
    page_size: PAGE_SIZE,
  });
  const items = loans.data?.items ?? [];
  const heads = [
    'loan',
    'state',
    'product',
    'amount',
    'principal',
    'interest',
    'fees',
    'dpd',
    'due',
    'actions',
  ] as const;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('loans.title')}</Title>
        <Button
          variant="default"
          size="xs"
          onClick={() => {
            void all.refetch();
            void loans.refetch();
          }}
        >
          {t('common.refresh')}
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        {t('loans.intro')}
      </Text>
      <ErrorNote error={all.error} />
      {all.data ? <PortfolioCards items={all.data.items} total={all.data.total} /> : null}
      <Group>
        <Select
          label={t('loans.state')}
          data={[
            { value: '', label: t('common.all') },
            ...LOAN_STATES.map((s) => ({ value: s, label: t(`state.${s}`) })),
          ]}
          value={state}
          onChange={(v) => {
            setState((v ?? '') as LoanStatus | '');
            setPage(1);
          }}
          data-testid="loans-filter-state"
        />
        <TextInput
          label={t('loans.uid')}
          value={uid}
          onChange={(e) => {
            setUid(e.currentTarget.value);
            setPage(1);
          }}
          data-testid="loans-filter-uid"
        />
      </Group>
      <ErrorNote error={loans.error} />
      <Card withBorder>
        {items.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('common.empty')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={1200}>
            <Table fz="sm" striped data-testid="loans-loans">
              <Table.Thead>
                <Table.Tr>
                  {heads.map((h) => (
                    <Table.Th key={h}>{t(`loans.${h}`)}</Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((l) => (
                  <LoanRow key={l.loan_id} loan={l} onOpen={() => setShown(l.loan_id)} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
      {(loans.data?.total ?? 0) > PAGE_SIZE ? (
        <Pagination total={Math.ceil((loans.data?.total ?? 0) / PAGE_SIZE)} value={page} onChange={setPage} />
      ) : null}
      <LoanDrawer loanId={shown} onClose={() => setShown(null)} />
    </Stack>
  );
}
