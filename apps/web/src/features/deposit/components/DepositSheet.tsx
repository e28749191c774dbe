import type { RechargeChannel } from '@bourse/protocol';
import { CopyField, Num, Sheet } from '@bourse/ui';
import {
  Alert,
  Anchor,
  Button,
  Group,
  List,
  Loader,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useInfo } from '../../../api/info.ts';
import { ApiError } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useLang } from '../../../lib/i18n.ts';
import { useRecords } from '../../../shared/records/api.ts';
import { DocumentUpload } from '../../../shared/upload/DocumentUpload.tsx';
import { uploadDepositProof, useBankRecharge, useChannels, useDepositAddress } from '../api.ts';

function Rules({ channel }: { channel: RechargeChannel }) {
  const { t } = useTranslation('assets');
  return (
    <Paper withBorder radius="md" p="sm" data-testid="deposit-rules">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {t('deposit.minimum')}
        </Text>
        <Text size="sm" fw={600} data-testid="deposit-minimum">
          <Num value={channel.min_amount} /> {channel.currency}
        </Text>
      </Group>
      {channel.kind === 'crypto' && (
        <Group justify="space-between" mt={4}>
          <Text size="sm" c="dimmed">
            {t('deposit.confirmations')}
          </Text>
          <Text size="sm" fw={600} data-testid="deposit-confirmations">
            {t('deposit.confirmationsValue', { count: channel.confirmations })}
          </Text>
        </Group>
      )}
      <Text size="xs" c="dimmed" mt="xs">
        {t('deposit.heldRule')}
      </Text>
    </Paper>
  );
}

function HeldDeposits() {
  const { t } = useTranslation('assets');
  const lang = useLang();
  const held = useRecords({ kind: 'recharge', status: '1', page: 1, page_size: 20 });
  const items = (held.data?.items ?? []).filter((i) => i.held);
  return (
    <Stack gap={4} data-testid="deposit-held">
      <Text size="sm" fw={600}>
        {t('deposit.held')}
      </Text>
      {items.length === 0 ? (
        <Text size="xs" c="dimmed">
          {t('deposit.heldEmpty')}
        </Text>
      ) : (
        <List size="xs" spacing={2}>
          {items.map((i) => (
            <List.Item key={i.id}>
              <Num value={i.amount} /> {i.currency} · {formatDateTime(i.time, lang)}
            </List.Item>
          ))}
        </List>
      )}
      <Anchor component={Link} to="/rechargeRecord" size="xs" data-testid="deposit-records-link">
        {t('deposit.records')}
      </Anchor>
    </Stack>
  );
}

function CryptoDeposit({
  channels,
  initialCurrency,
}: {
  channels: RechargeChannel[];
  initialCurrency: string;
}) {
  const { t } = useTranslation('assets');
  const crypto = channels.filter((c) => c.kind === 'crypto');
  const currencies = [...new Set(crypto.map((c) => c.currency))];
  const [currency, setCurrency] = useState(
    currencies.includes(initialCurrency) ? initialCurrency : (currencies[0] ?? 'USDT'),
  );
  const chains = crypto.filter((c) => c.currency === currency);
  const [chain, setChain] = useState<string | null>(chains[0]?.chain ?? null);
  useEffect(() => {
    const list = crypto.filter((c) => c.currency === currency);
    if (!list.some((c) => c.chain === chain))
      setChain(list.find((c) => c.open)?.chain ?? list[0]?.chain ?? null);
  }, [currency, chain, crypto]);
  const channel = chains.find((c) => c.chain === chain) ?? null;
  const address = useDepositAddress(currency, chain, channel?.open === true);
  return (
    <Stack gap="sm">
      <Select
        label={t('deposit.currency')}
        data={currencies}
        value={currency}
        onChange={(v) => v && setCurrency(v)}
        allowDeselect={false}
        data-testid="deposit-currency"
      />
      {chains.length > 0 && (
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('deposit.chain')}
          </Text>
          <SegmentedControl
            value={chain ?? ''}
            onChange={setChain}
            data={chains.map((c) => ({ value: c.chain, label: c.chain }))}
            data-testid="deposit-chain"
          />
        </Stack>
      )}
      {channel && <Rules channel={channel} />}
      {channel && !channel.open ? (
        <Alert color="orange" data-testid="deposit-closed">
          {t('deposit.closed')}
        </Alert>
      ) : address.isPending ? (
        <Group justify="center" py="md">
          <Loader size="sm" />
        </Group>
      ) : address.isError ? (
        <Alert color="red">{(address.error as Error).message}</Alert>
      ) : address.data ? (
        <Paper withBorder radius="md" p="sm">
          <CopyField
            label={t('deposit.address')}
            value={address.data.address}
            copyLabel={t('deposit.copy')}
            copiedLabel={t('deposit.copied')}
            testId="deposit-address"
            mono
          />
          <Text size="xs" c="dimmed" mt="xs">
            {t('deposit.onlyThis', { currency, chain })}
          </Text>
        </Paper>
      ) : null}
      <HeldDeposits />
    </Stack>
  );
}

function BankDeposit({ channels }: { channels: RechargeChannel[] }) {
  const { t } = useTranslation('assets');
  const bank = channels.filter((c) => c.kind === 'bank');
  const [currency, setCurrency] = useState(bank[0]?.currency ?? 'USDT');
  const channel = bank.find((c) => c.currency === currency) ?? null;
  const [amount, setAmount] = useState('');
  const [reference, setReference] = useState('');
  // The stored proof's id once the shared upload field has sent it (web/uploadDocument).
  const [proofId, setProofId] = useState<string | null>(null);
  const [proofError, setProofError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const submit = useBankRecharge();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!proofId) return setProofError(t('deposit.proofRequired'));
    try {
      await submit.mutateAsync({
        currency,
        amount: amount.trim(),
        reference: reference.trim(),
        proof_id: proofId,
      });
      setDone(true);
    } catch (e) {
      setError(e instanceof ApiError || e instanceof Error ? e.message : String(e));
    }
  };
  if (!channel) return <Alert color="orange">{t('deposit.closed')}</Alert>;
  if (!channel.open)
    return (
      <Alert color="orange" data-testid="deposit-closed">
        {t('deposit.closed')}
      </Alert>
    );
  if (done)
    return (
      <Alert color="teal" data-testid="bank-deposit-done">
        {t('deposit.bankSubmitted')}
      </Alert>
    );
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm">
        <Rules channel={channel} />
        <Paper withBorder radius="md" p="sm">
          <Text size="xs" c="dimmed">
            {t('deposit.bankInstructions')}
          </Text>
          <Text size="sm" data-testid="bank-instructions">
            {channel.instructions}
          </Text>
        </Paper>
        {bank.length > 1 && (
          <Select
            label={t('deposit.currency')}
            data={bank.map((b) => b.currency)}
            value={currency}
            onChange={(v) => v && setCurrency(v)}
          />
        )}
        <TextInput
          label={t('deposit.bankAmount')}
          description={t('deposit.bankMinimum', { amount: channel.min_amount, currency })}
          inputMode="decimal"
          value={amount}
          onChange={(e) => setAmount(e.currentTarget.value)}
          rightSection={<Text size="xs">{currency}</Text>}
          rightSectionWidth={56}
          required
          data-testid="bank-amount"
        />
        <TextInput
          label={t('deposit.bankReference')}
          description={t('deposit.bankReferenceHint')}
          value={reference}
          onChange={(e) => setReference(e.currentTarget.value)}
          maxLength={200}
          required
          data-testid="bank-reference"
        />
        <DocumentUpload
          label={t('deposit.bankProof')}
          description={t('deposit.bankProofHint')}
          upload={uploadDepositProof}
          onUploaded={(stored) => {
            setProofId(stored.id);
            setProofError(null);
          }}
          error={proofError}
          disabled={submit.isPending}
          testId="bank-proof"
        />
        {error && (
          <Alert color="red" data-testid="bank-error">
            {error}
          </Alert>
        )}
        <Button type="submit" loading={submit.isPending} data-testid="bank-submit">
          {t('deposit.bankSubmit')}
        </Button>
      </Stack>
    </form>
  );
}

/**
 * The deposit sheet: crypto (currency, network, the rules — minimum, confirmations, what happens to
 * smaller deposits — then the address to copy, and held deposits) or a bank transfer with proof.
 * The address is text with a copy button (no QR: rendering one needs a dependency we do not ship).
 */
export function DepositSheet({
  currency,
  opened,
  onClose,
}: {
  currency: string;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('assets');
  const info = useInfo();
  const channels = useChannels();
  const [mode, setMode] = useState<'crypto' | 'bank'>('crypto');
  return (
    <Sheet
      opened={opened}
      onClose={onClose}
      title={t('deposit.title')}
      closeLabel={t('common.close')}
      data-testid="deposit-sheet"
    >
      {info.data?.is_demo === 1 ? (
        <Alert color="orange" data-testid="deposit-real-only">
          {t('deposit.realOnly')}
        </Alert>
      ) : channels.isPending ? (
        <Group justify="center" py="lg">
          <Loader />
        </Group>
      ) : channels.data ? (
        <Stack gap="md">
          <SegmentedControl
            fullWidth
            value={mode}
            onChange={(v) => setMode(v as 'crypto' | 'bank')}
            data={[
              { value: 'crypto', label: t('deposit.crypto') },
              { value: 'bank', label: t('deposit.bank') },
            ]}
            data-testid="deposit-mode"
          />
          {mode === 'crypto' ? (
            <CryptoDeposit channels={channels.data} initialCurrency={currency} />
          ) : (
            <BankDeposit channels={channels.data} />
          )}
        </Stack>
      ) : null}
    </Sheet>
  );
}
