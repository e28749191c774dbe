import {
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api.ts';
import { type SavedAddress, useAddAddress, useAddresses, useDeleteAddress } from '../api.ts';

const CHAIN_KEYS = ['ERC20', 'TRC20', 'BTC'] as const;
type ChainKey = (typeof CHAIN_KEYS)[number];
const isChainKey = (c: string): c is ChainKey => (CHAIN_KEYS as readonly string[]).includes(c);

function refusal(error: unknown): string | null {
  return error instanceof ApiError && error.kind === 'refused' ? error.message : null;
}

/** Quick shape checks before the server's real ones (checksums, base58check, bech32). */
function looksLike(chain: string, address: string): boolean {
  if (chain === 'ERC20') return /^0x[0-9a-fA-F]{40}$/.test(address);
  if (chain === 'TRC20') return /^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(address);
  if (chain === 'BTC') return /^([13][1-9A-HJ-NP-Za-km-z]{24,34}|(bc1|BC1)[0-9A-Za-z]{8,87})$/.test(address);
  return address.length > 0;
}

function AddForm({ chains }: { chains: Record<string, string[]> }) {
  const { t } = useTranslation('withdraw');
  const add = useAddAddress();
  const currencies = Object.keys(chains);
  const [currency, setCurrency] = useState('USDT');
  const [chain, setChain] = useState('ERC20');
  const [address, setAddress] = useState('');
  const [remark, setRemark] = useState('');
  const [memo, setMemo] = useState('');
  const [error, setError] = useState<string | null>(null);
  const chainName = (c: string) => (isChainKey(c) ? t(`address.chains.${c}`) : c);
  const chainOptions = chains[currency] ?? [];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = address.trim();
    if (!trimmed) return setError(t('address.errors.address'));
    if (!looksLike(chain, trimmed)) return setError(t('address.errors.format', { chain: chainName(chain) }));
    setError(null);
    add.mutate(
      { currency, chain, address: trimmed, remark: remark.trim(), memo: memo.trim() },
      {
        onSuccess: () => {
          setAddress('');
          setRemark('');
          setMemo('');
          notifications.show({ color: 'teal', message: t('address.saved') });
        },
      },
    );
  };

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} data-testid="address-form">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Title order={2} size="h4">
            {t('address.addTitle')}
          </Title>
          {refusal(add.error) ? (
            <Alert color="yellow" variant="light" role="alert" data-testid="address-error">
              {refusal(add.error)}
            </Alert>
          ) : null}
          <Group grow align="flex-start">
            <Select
              label={t('address.currency')}
              data={currencies}
              value={currency}
              allowDeselect={false}
              onChange={(v) => {
                const next = v ?? 'USDT';
                setCurrency(next);
                setChain(chains[next]?.[0] ?? 'ERC20');
              }}
              data-testid="address-currency"
            />
            <Select
              label={t('address.chain')}
              data={chainOptions.map((c) => ({ value: c, label: chainName(c) }))}
              value={chain}
              allowDeselect={false}
              onChange={(v) => setChain(v ?? chainOptions[0] ?? 'ERC20')}
              data-testid="address-chain"
            />
          </Group>
          <TextInput
            label={t('address.address')}
            placeholder={t('address.addressPlaceholder')}
            value={address}
            onChange={(e) => {
              setAddress(e.currentTarget.value);
              setError(null);
            }}
            error={error}
            autoComplete="off"
            spellCheck={false}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            data-testid="address-input"
          />
          <Group grow align="flex-start">
            <TextInput
              label={`${t('address.remark')} (${t('common.optional')})`}
              value={remark}
              maxLength={64}
              onChange={(e) => setRemark(e.currentTarget.value)}
              data-testid="address-remark"
            />
            <TextInput
              label={`${t('address.memo')} (${t('common.optional')})`}
              description={t('address.memoHint')}
              value={memo}
              maxLength={64}
              onChange={(e) => setMemo(e.currentTarget.value)}
              data-testid="address-memo"
            />
          </Group>
          <Button type="submit" loading={add.isPending} data-testid="address-submit">
            {t('address.add')}
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}

function AddressRow({ item }: { item: SavedAddress }) {
  const { t } = useTranslation('withdraw');
  const del = useDeleteAddress();
  return (
    <Paper withBorder radius="md" p="sm" data-testid="address-row">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Group gap={6}>
            <Text fw={700}>{item.currency}</Text>
            <Badge variant="light" size="sm">
              {isChainKey(item.chain) ? t(`address.chains.${item.chain}`) : item.chain}
            </Badge>
            {item.remark ? (
              <Text size="sm" c="dimmed">
                {item.remark}
              </Text>
            ) : null}
          </Group>
          <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
            {item.address}
          </Text>
          {item.memo ? (
            <Text size="xs" c="dimmed">
              {t('address.memo')}: {item.memo}
            </Text>
          ) : null}
        </Stack>
        <Button
          variant="subtle"
          color="red"
          size="compact-sm"
          loading={del.isPending}
          style={{ flexShrink: 0 }}
          onClick={() => {
            if (window.confirm(t('common.deleteConfirm'))) {
              del.mutate(item.id, { onSuccess: () => notifications.show({ message: t('address.deleted') }) });
            }
          }}
          data-testid="address-delete"
        >
          {t('common.delete')}
        </Button>
      </Group>
    </Paper>
  );
}

/** /address: the withdrawal-address book (currency, network, address checked per network, remark, memo). */
export function AddressPage() {
  const { t } = useTranslation('withdraw');
  const list = useAddresses();
  return (
    <Stack gap="lg" py={{ base: 'md', sm: 40 }} maw={960} mx="auto" w="100%" data-testid="address-page">
      <Stack gap={4}>
        <Title order={1} size="h2">
          {t('address.title')}
        </Title>
        <Text c="dimmed" size="sm">
          {t('address.intro')}
        </Text>
      </Stack>
      {list.isLoading || !list.data ? (
        <Group justify="center" py="xl">
          <Loader size="sm" />
        </Group>
      ) : (
        <>
          <AddForm chains={list.data.chains} />
          <Group justify="space-between">
            <Text size="sm" c="dimmed" data-testid="address-count">
              {t('address.count', { count: list.data.list.length, max: list.data.max })}
            </Text>
          </Group>
          {list.data.list.length === 0 ? (
            <Text c="dimmed" ta="center" py="lg" data-testid="address-empty">
              {t('address.empty')}
            </Text>
          ) : (
            <Stack gap="sm" data-testid="address-list">
              {list.data.list.map((item) => (
                <AddressRow key={item.id} item={item} />
              ))}
            </Stack>
          )}
        </>
      )}
    </Stack>
  );
}
