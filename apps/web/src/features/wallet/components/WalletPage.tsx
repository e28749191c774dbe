import {
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../../lib/api.ts';
import { useAddWallet, useDeleteWallet, useWallets, type Wallet } from '../api.ts';

function refusal(error: unknown): string | null {
  return error instanceof ApiError && error.kind === 'refused' ? error.message : null;
}

function WalletItem({ wallet }: { wallet: Wallet }) {
  const { t } = useTranslation('withdraw');
  const del = useDeleteWallet();
  return (
    <Paper withBorder radius="lg" p="md" data-testid="wallet-row">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={2}>
          <Badge variant="light" w="fit-content">
            {t(`wallet.types.${wallet.wallet_type}`)}
          </Badge>
          <Text ff="monospace" size="lg">
            {wallet.wallet_account}
          </Text>
          <Text size="sm" c="dimmed">
            {wallet.payee_name}
            {wallet.wallet_nickname ? ` · ${wallet.wallet_nickname}` : ''}
          </Text>
        </Stack>
        <Button
          variant="subtle"
          color="red"
          size="compact-sm"
          loading={del.isPending}
          onClick={() => {
            if (window.confirm(t('common.deleteConfirm'))) {
              del.mutate(wallet.id, {
                onSuccess: () => notifications.show({ message: t('wallet.deleted') }),
              });
            }
          }}
        >
          {t('common.delete')}
        </Button>
      </Group>
    </Paper>
  );
}

/** /wallet: bound e-wallets (Alipay, WeChat Pay), masked. */
export function WalletPage() {
  const { t } = useTranslation('withdraw');
  const wallets = useWallets();
  return (
    <Stack gap="lg" py={{ base: 'md', sm: 40 }} maw={960} mx="auto" w="100%" data-testid="wallet-page">
      <Group justify="space-between" align="flex-end">
        <Stack gap={4}>
          <Title order={1} size="h2">
            {t('wallet.title')}
          </Title>
          <Text c="dimmed" size="sm">
            {t('wallet.intro')}
          </Text>
        </Stack>
        <Button component={Link} to="/walletAdd" data-testid="wallet-add">
          {t('wallet.add')}
        </Button>
      </Group>
      {wallets.isLoading || !wallets.data ? (
        <Group justify="center" py="xl">
          <Loader size="sm" />
        </Group>
      ) : wallets.data.list.length === 0 ? (
        <Text c="dimmed" ta="center" py="xl">
          {t('wallet.empty')}
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {wallets.data.list.map((w) => (
            <WalletItem key={w.id} wallet={w} />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

/** /walletAdd: bind an e-wallet account (sealed on the server). */
export function WalletAddPage() {
  const { t } = useTranslation('withdraw');
  const navigate = useNavigate();
  const add = useAddWallet();
  const [type, setType] = useState<'alipay' | 'wechat'>('alipay');
  const [account, setAccount] = useState('');
  const [nickname, setNickname] = useState('');
  const [payee, setPayee] = useState('');
  const [errors, setErrors] = useState<{ account?: string; payee?: string }>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = {
      ...(account.trim() ? {} : { account: t('common.required') }),
      ...(payee.trim() ? {} : { payee: t('common.required') }),
    };
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    add.mutate(
      {
        wallet_type: type,
        wallet_account: account.trim(),
        wallet_nickname: nickname.trim(),
        payee_name: payee.trim(),
      },
      {
        onSuccess: () => {
          notifications.show({ color: 'teal', message: t('wallet.saved') });
          navigate('/wallet');
        },
      },
    );
  };
  return (
    <Stack gap="lg" py={{ base: 'md', sm: 40 }} maw={560} mx="auto" w="100%" data-testid="wallet-add-page">
      <Title order={1} size="h2">
        {t('wallet.addTitle')}
      </Title>
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            {refusal(add.error) ? (
              <Alert color="yellow" variant="light" role="alert">
                {refusal(add.error)}
              </Alert>
            ) : null}
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                {t('wallet.type')}
              </Text>
              <SegmentedControl
                value={type}
                onChange={(v) => setType(v as 'alipay' | 'wechat')}
                data={[
                  { value: 'alipay', label: t('wallet.types.alipay') },
                  { value: 'wechat', label: t('wallet.types.wechat') },
                ]}
              />
            </Stack>
            <TextInput
              label={t('wallet.account')}
              withAsterisk
              value={account}
              maxLength={64}
              onChange={(e) => setAccount(e.currentTarget.value)}
              error={errors.account}
              data-testid="wallet-account"
            />
            <TextInput
              label={`${t('wallet.nickname')} (${t('common.optional')})`}
              value={nickname}
              maxLength={64}
              onChange={(e) => setNickname(e.currentTarget.value)}
            />
            <TextInput
              label={t('wallet.payee')}
              withAsterisk
              value={payee}
              maxLength={64}
              onChange={(e) => setPayee(e.currentTarget.value)}
              error={errors.payee}
              data-testid="wallet-payee"
            />
            <Group justify="flex-end">
              <Button component={Link} to="/wallet" variant="default">
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={add.isPending} data-testid="wallet-submit">
                {t('common.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
