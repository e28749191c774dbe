import { Badge, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { BoundAddPage, BoundItem, BoundListPage } from '../../../shared/payee/BoundAccounts.tsx';
import { useAddWallet, useDeleteWallet, useWallets, type Wallet } from '../api.ts';

function WalletItem({ wallet }: { wallet: Wallet }) {
  const { t } = useTranslation('withdraw');
  const del = useDeleteWallet();
  return (
    <BoundItem
      testId="wallet-row"
      deleting={del.isPending}
      onDelete={() =>
        del.mutate(wallet.id, {
          onSuccess: () => notifications.show({ message: t('wallet.deleted') }),
        })
      }
    >
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
    </BoundItem>
  );
}

/** /wallet: bound e-wallets (Alipay, WeChat Pay), masked. */
export function WalletPage() {
  const { t } = useTranslation('withdraw');
  const wallets = useWallets();
  return (
    <BoundListPage
      testId="wallet-page"
      title={t('wallet.title')}
      intro={t('wallet.intro')}
      addTo="/walletAdd"
      addLabel={t('wallet.add')}
      addTestId="wallet-add"
      list={wallets.isLoading ? undefined : wallets.data?.list}
      emptyText={t('wallet.empty')}
      renderItem={(w) => <WalletItem key={w.id} wallet={w} />}
    />
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
    <BoundAddPage
      testId="wallet-add-page"
      maw={560}
      title={t('wallet.addTitle')}
      onSubmit={submit}
      error={add.error}
      cancelTo="/wallet"
      submitting={add.isPending}
      submitTestId="wallet-submit"
    >
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
    </BoundAddPage>
  );
}
