import type { AdjustmentView as Adjustment } from '@bourse/protocol';
import {
  Alert,
  Button,
  Card,
  Group,
  Modal,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { api } from '../../app/api.ts';
import { hasPermission, useStaffMe } from '../../app/session.ts';
import { ErrorNote, ReasonDialog, useAmountText } from '../../app/ui.tsx';
import { AdjustmentsTable } from './AdjustmentsTable.tsx';

const ACCOUNT_TYPES = ['spot', 'contract', 'options', 'earn', 'funding'] as const;
const CURRENCIES = ['USDT', 'BTC', 'ETH', 'TRX', 'USDC', 'BNB', 'SOL', 'USD', 'EUR', 'HKD', 'CNY'];

type ListAnswer = { list: Adjustment[]; staff_names: Record<string, string>; threshold_usdt: string };

/** Manual adjustments: a new one, the pending ones (four eyes), and the recent ones. */
export default function AdjustmentsScreen() {
  const { t } = useTranslation();
  const me = useStaffMe();
  const queryClient = useQueryClient();
  const amountText = useAmountText();
  const [params] = useSearchParams();
  const [customerId, setCustomerId] = useState(params.get('customer') ?? '');
  const [accountType, setAccountType] = useState<string>('spot');
  const [currency, setCurrency] = useState<string>('USDT');
  const [direction, setDirection] = useState<'credit' | 'debit'>('credit');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [result, setResult] = useState<Adjustment | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [deciding, setDeciding] = useState<{ a: Adjustment; decision: 'approve' | 'reject' } | null>(null);

  const pending = useQuery({
    queryKey: ['getAdjustments', 'pending'],
    queryFn: () => api.get<ListAnswer>('getAdjustments', { status: 'pending' }),
  });
  const recent = useQuery({
    queryKey: ['getAdjustments', 'recent'],
    queryFn: () => api.get<ListAnswer>('getAdjustments', { limit: 30 }),
  });
  const threshold = pending.data?.threshold_usdt ?? recent.data?.threshold_usdt ?? '…';
  const canApprove = hasPermission(me.data, 'adjustments.approve');

  const refresh = () => queryClient.invalidateQueries({ queryKey: ['getAdjustments'] });

  /** The form only opens the confirmation: money moves once the staff member has read what it does. */
  function submit(e: FormEvent) {
    e.preventDefault();
    setConfirming(true);
  }

  async function post() {
    setConfirming(false);
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      const answer = await api.post<Adjustment>('createAdjustment', {
        customer_id: customerId.trim(),
        account_type: accountType,
        currency,
        direction,
        amount: amount.trim(),
        reason,
      });
      setResult(answer);
      setAmount('');
      setReason('');
      await refresh();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack>
      <Title order={2}>{t('adjustments.title')}</Title>
      <Text size="sm" c="dimmed">
        {t('adjustments.intro', { threshold })}
      </Text>
      <Card withBorder>
        <Title order={4} mb="sm">
          {t('adjustments.new')}
        </Title>
        <form onSubmit={submit}>
          <Stack>
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
              <TextInput
                label={t('adjustments.customer')}
                description={t('adjustments.customerHint')}
                value={customerId}
                onChange={(e) => setCustomerId(e.currentTarget.value)}
                required
                maxLength={64}
                data-testid="adjust-customer"
              />
              <Select
                label={t('adjustments.accountType')}
                value={accountType}
                onChange={(v) => setAccountType(v ?? 'spot')}
                data={ACCOUNT_TYPES.map((a) => ({ value: a, label: t(`adjustments.accountTypes.${a}`) }))}
                allowDeselect={false}
              />
              <Select
                label={t('adjustments.currency')}
                value={currency}
                onChange={(v) => setCurrency(v ?? 'USDT')}
                data={CURRENCIES}
                allowDeselect={false}
                data-testid="adjust-currency"
              />
              <TextInput
                label={t('adjustments.amount')}
                value={amount}
                onChange={(e) => setAmount(e.currentTarget.value)}
                inputMode="decimal"
                required
                maxLength={40}
                data-testid="adjust-amount"
              />
            </SimpleGrid>
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                {t('adjustments.direction')}
              </Text>
              <SegmentedControl
                value={direction}
                onChange={(v) => setDirection(v as 'credit' | 'debit')}
                data={[
                  { value: 'credit', label: t('adjustments.credit') },
                  { value: 'debit', label: t('adjustments.debit') },
                ]}
                style={{ alignSelf: 'flex-start' }}
              />
            </Stack>
            <Textarea
              label={t('adjustments.reason')}
              description={t('common.reasonHint')}
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
              required
              maxLength={500}
              autosize
              minRows={2}
              data-testid="adjust-reason"
            />
            <ErrorNote error={error} />
            {result ? (
              <Alert
                color={result.status === 'posted' ? 'green' : 'yellow'}
                variant="light"
                data-testid="adjust-result"
              >
                {result.status === 'posted'
                  ? t('adjustments.posted', { entry: result.entry_id })
                  : t('adjustments.pendingDone')}
              </Alert>
            ) : null}
            <Group justify="flex-end">
              <Button type="submit" loading={busy} data-testid="adjust-submit">
                {t('adjustments.submit')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Card>

      <Card withBorder>
        <Group justify="space-between" mb="sm">
          <Title order={4}>{t('adjustments.pending')}</Title>
          <Button size="xs" variant="default" onClick={() => void refresh()}>
            {t('common.refresh')}
          </Button>
        </Group>
        <ErrorNote error={pending.error} />
        {pending.data && pending.data.list.length === 0 ? (
          <Text c="dimmed" size="sm">
            {t('common.empty')}
          </Text>
        ) : null}
        {pending.data && pending.data.list.length > 0 ? (
          <AdjustmentsTable
            list={pending.data.list}
            names={pending.data.staff_names}
            myId={me.data?.staff_id}
            onDecide={canApprove ? (a, decision) => setDeciding({ a, decision }) : undefined}
          />
        ) : null}
      </Card>

      <Card withBorder>
        <Title order={4} mb="sm">
          {t('adjustments.recent')}
        </Title>
        <ErrorNote error={recent.error} />
        {recent.data ? <AdjustmentsTable list={recent.data.list} names={recent.data.staff_names} /> : null}
      </Card>

      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={t('adjustments.confirmTitle')}
        centered
        size="lg"
      >
        <Stack>
          <Text fw={700} size="lg" data-testid="adjust-summary">
            {direction === 'credit' ? '+' : '−'}
            {amount.trim()} {currency}
          </Text>
          <Text size="sm">
            {t('adjustments.confirmText', {
              account: t(`adjustments.accountTypes.${accountType as 'spot'}`),
              customer: customerId.trim(),
            })}
          </Text>
          <Text size="sm" c="dimmed">
            {t('adjustments.reason')}: {reason.trim()}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('common.cancel')}
            </Button>
            <Button
              color={direction === 'debit' ? 'red' : undefined}
              onClick={() => void post()}
              data-testid="adjust-confirm"
            >
              {t('adjustments.submit')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <ReasonDialog
        opened={deciding !== null}
        title={
          deciding?.decision === 'approve' ? t('adjustments.approveTitle') : t('adjustments.rejectTitle')
        }
        text={
          deciding
            ? `${deciding.a.direction === 'credit' ? '+' : '−'}${amountText(deciding.a.amount, deciding.a.currency)} · ${deciding.a.customer_id} · ${deciding.a.reason}`
            : undefined
        }
        confirmLabel={deciding?.decision === 'approve' ? t('adjustments.approve') : t('adjustments.reject')}
        danger={deciding?.decision === 'reject'}
        onClose={() => setDeciding(null)}
        onSubmit={async (why) => {
          if (!deciding) return;
          await api.post(deciding.decision === 'approve' ? 'approveAdjustment' : 'rejectAdjustment', {
            adjustment_id: deciding.a.adjustment_id,
            reason: why.trim() || undefined,
          });
          await refresh();
        }}
      />
    </Stack>
  );
}
