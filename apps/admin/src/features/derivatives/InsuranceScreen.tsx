import { isDecimal, signOf } from '@bourse/money';
import type { AdminInsuranceData, DerivativesBook } from '@bourse/protocol';
import { Alert, Button, Card, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { hasPermission, useStaffMe } from '../../app/session.ts';
import { ErrorNote, useAmountText } from '../../app/ui.tsx';
import { fundInsurance, KEYS, REFRESH_MS, useInsurance } from './api.ts';
import {
  BookToggle,
  type Column,
  DataTable,
  Num,
  ReasonInput,
  RefreshedNote,
  reasonOk,
  Signed,
} from './shared.tsx';

type Movement = AdminInsuranceData['movements'][number];

function BalanceCard({ book }: { book: DerivativesBook }) {
  const { t } = useTranslation();
  const amountText = useAmountText();
  const insurance = useInsurance(book);
  return (
    <Card withBorder data-testid={`insurance-balance-${book}`}>
      <Text size="sm" c="dimmed">
        {t('derivatives.insurance.balance')} · {t(`derivatives.book.${book}`)}
      </Text>
      <ErrorNote error={insurance.error} />
      <Text size="xl" fw={700} style={{ fontVariantNumeric: 'tabular-nums' }} data-testid="insurance-balance">
        {insurance.data ? amountText(insurance.data.balance, insurance.data.currency) : '…'}
      </Text>
    </Card>
  );
}

/** The operator pays capital into a book's insurance account (adjustments.create; ledger + audit). */
function FundForm() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [book, setBook] = useState<DerivativesBook>('demo');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [tried, setTried] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<{ amount: string; book: DerivativesBook } | null>(null);
  const [busy, setBusy] = useState(false);
  const amountOk = isDecimal(amount) && signOf(amount.trim()) > 0;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    setDone(null);
    if (!amountOk || !reasonOk(reason)) return;
    setBusy(true);
    setError(null);
    try {
      await fundInsurance({ book, amount: amount.trim(), reason: reason.trim() });
      setDone({ amount: amount.trim(), book });
      setAmount('');
      setReason('');
      setTried(false);
      await client.invalidateQueries({ queryKey: KEYS.insurance(book) });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card withBorder data-testid="insurance-fund">
      <form onSubmit={submit}>
        <Stack>
          <Title order={4}>{t('derivatives.insurance.fund')}</Title>
          <Text size="sm" c="dimmed">
            {t('derivatives.insurance.fundIntro')}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                {t('derivatives.book.label')}
              </Text>
              <BookToggle value={book} onChange={setBook} />
            </Stack>
            <TextInput
              label={t('derivatives.insurance.amount')}
              description={t('derivatives.insurance.amountHint')}
              value={amount}
              onChange={(e) => setAmount(e.currentTarget.value)}
              inputMode="decimal"
              maxLength={40}
              required
              error={tried && !amountOk ? t('derivatives.contracts.hint.decimal') : undefined}
              data-testid="insurance-amount"
            />
          </SimpleGrid>
          <ReasonInput value={reason} onChange={setReason} error={tried && !reasonOk(reason)} />
          <ErrorNote error={error} />
          {done ? (
            <Alert color="teal" variant="light" data-testid="insurance-funded">
              {t('derivatives.insurance.funded', {
                amount: done.amount,
                book: t(`derivatives.book.${done.book}`),
              })}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button type="submit" loading={busy} data-testid="insurance-submit">
              {t('derivatives.insurance.fund')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

/** The insurance account per book: balances, latest movements, and funding it (with a reason). */
export default function InsuranceScreen() {
  const { t } = useTranslation();
  const lang = useLang();
  const me = useStaffMe();
  const [book, setBook] = useState<DerivativesBook>('real');
  const insurance = useInsurance(book);
  const canFund = hasPermission(me.data, 'adjustments.create');

  const columns: Column<Movement>[] = [
    {
      key: 'time',
      label: t('common.time'),
      render: (m) => <Num>{formatTime(m.created_at, lang)}</Num>,
    },
    {
      key: 'amount',
      label: t('derivatives.insurance.amount'),
      align: 'right',
      render: (m) => <Signed value={m.amount} />,
    },
    {
      key: 'reason',
      label: t('derivatives.insurance.reason'),
      render: (m) => (
        <Text size="sm" title={m.reason}>
          {
            t(`derivatives.insurance.movement.${m.reason.replaceAll('.', '_')}` as never, {
              defaultValue: m.reason,
            }) as string
          }
        </Text>
      ),
    },
    {
      key: 'reference',
      label: t('derivatives.insurance.reference'),
      render: (m) => (
        <Text size="xs" ff="monospace">
          {m.reference}
        </Text>
      ),
    },
    {
      key: 'entry',
      label: t('derivatives.insurance.entry'),
      render: (m) => (
        <Text size="xs" ff="monospace">
          {m.entry_id}
        </Text>
      ),
    },
  ];

  return (
    <Stack data-testid="insurance-screen">
      <Title order={2}>{t('derivatives.insurance.title')}</Title>
      <Text size="sm" c="dimmed">
        {t('derivatives.insurance.intro')}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <BalanceCard book="real" />
        <BalanceCard book="demo" />
      </SimpleGrid>
      {canFund ? <FundForm /> : null}
      <Card withBorder>
        <Stack gap="sm">
          <Group justify="space-between" wrap="wrap">
            <Title order={4}>{t('derivatives.insurance.movements')}</Title>
            <BookToggle value={book} onChange={setBook} />
          </Group>
          <ErrorNote error={insurance.error} />
          {insurance.data ? (
            <DataTable
              rows={insurance.data.movements}
              columns={columns}
              rowKey={(m) => m.entry_id}
              testId="insurance-movements"
              rowTestId="insurance-movement"
              minWidth={800}
            />
          ) : null}
          <RefreshedNote updatedAt={insurance.dataUpdatedAt} seconds={REFRESH_MS / 1000} />
        </Stack>
      </Card>
    </Stack>
  );
}
