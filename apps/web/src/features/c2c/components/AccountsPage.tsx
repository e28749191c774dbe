import { C2C_LIMITS, C2C_METHODS, type C2cAccountData, type C2cMethod } from '@bourse/protocol';
import {
  Button,
  Group,
  Modal,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api.ts';
import { useToken } from '../../../lib/session.ts';
import { useC2cAccounts, useDeleteAccount, useIsDemo, useSaveAccount, useVerifiedName } from '../api.ts';
import { type AccountForm, type AccountProblem, accountBody, accountProblems, payToLines } from '../logic.ts';
import { C2cPage, DemoNote, ErrorNote, Loading, LoginPrompt, RefusalNote, useC2cWords } from './parts.tsx';

const EMPTY: Omit<AccountForm, 'method'> = {
  bank_name: '',
  account: '',
  swift: '',
  bank_address: '',
  wallet_id: '',
};

function AccountCard({ account, onDelete }: { account: C2cAccountData; onDelete: () => void }) {
  const { t } = useTranslation('c2c');
  const words = useC2cWords();
  return (
    <Paper withBorder radius="md" p="md" data-testid="c2c-account" data-account={account.account_id}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <Stack gap={2} miw={0}>
          <Text fw={700}>{words.method(account.method)}</Text>
          {payToLines(account).map((line) => (
            <Text key={line.field} size="sm" style={{ overflowWrap: 'anywhere' }} data-field={line.field}>
              <Text span c="dimmed" size="sm">
                {t(`field.${line.field}`)}:{' '}
              </Text>
              {line.value}
            </Text>
          ))}
        </Stack>
        <Button size="xs" variant="subtle" color="red" onClick={onDelete} data-testid="account-delete">
          {t('accounts.delete')}
        </Button>
      </Group>
    </Paper>
  );
}

function AddAccount({ name, full }: { name: string; full: boolean }) {
  const { t } = useTranslation('c2c');
  const words = useC2cWords();
  const save = useSaveAccount();
  const [method, setMethod] = useState<C2cMethod>('bank');
  const [form, setForm] = useState(EMPTY);
  const [shown, setShown] = useState<AccountProblem[]>([]);
  const set = (key: keyof typeof EMPTY) => (e: { currentTarget: { value: string } }) => {
    const value = e.currentTarget.value;
    setForm((f) => ({ ...f, [key]: value }));
    setShown([]);
  };
  const problemOf = (p: AccountProblem) => (shown.includes(p) ? t(`accounts.problem.${p}`) : null);
  const submit = () => {
    const whole = { ...form, method };
    const problems = accountProblems(whole);
    setShown(problems);
    if (problems.length > 0) return;
    save.mutate(accountBody(whole, name), { onSuccess: () => setForm(EMPTY) });
  };
  return (
    <Paper withBorder radius="lg" p="md" data-testid="c2c-account-form">
      <Stack gap="sm">
        <Text fw={700}>{t('accounts.add')}</Text>
        <SegmentedControl
          value={method}
          onChange={(value) => {
            setMethod(value as C2cMethod);
            setShown([]);
          }}
          data={C2C_METHODS.map((m) => ({ value: m, label: words.method(m) }))}
          data-testid="account-method"
        />
        <TextInput
          label={t('accounts.name')}
          description={t('accounts.nameHint')}
          value={name}
          readOnly
          data-testid="account-name"
        />
        {method === 'bank' ? (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput
              label={t('accounts.bankName')}
              value={form.bank_name}
              onChange={set('bank_name')}
              error={problemOf('bank_name')}
              data-testid="account-bank-name"
            />
            <TextInput
              label={t('accounts.account')}
              value={form.account}
              onChange={set('account')}
              error={problemOf('account') ?? problemOf('iban')}
              autoComplete="off"
              data-testid="account-number"
            />
            <TextInput
              label={t('accounts.swift')}
              value={form.swift}
              onChange={set('swift')}
              error={problemOf('swift')}
              autoComplete="off"
              data-testid="account-swift"
            />
            <TextInput
              label={t('accounts.bankAddress')}
              value={form.bank_address}
              onChange={set('bank_address')}
              data-testid="account-bank-address"
            />
          </SimpleGrid>
        ) : (
          <TextInput
            label={t('accounts.walletId', { method: words.method(method) })}
            value={form.wallet_id}
            onChange={set('wallet_id')}
            error={problemOf('wallet_id')}
            data-testid="account-wallet-id"
          />
        )}
        {save.error instanceof ApiError ? <ErrorNote error={save.error} /> : null}
        {save.isSuccess ? (
          <Text size="sm" c="teal" data-testid="account-saved">
            {t('accounts.saved')}
          </Text>
        ) : null}
        <Group justify="space-between" wrap="wrap">
          <Text size="xs" c="dimmed">
            {t('accounts.max', { max: C2C_LIMITS.accountsPerCustomerMax })}
          </Text>
          <Button onClick={submit} loading={save.isPending} disabled={full} data-testid="account-save">
            {t('accounts.save')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** `/c2c_account`: my collection accounts, adding one in my verified real name, deleting one. */
export function AccountsPage() {
  const { t } = useTranslation('c2c');
  const token = useToken();
  const demo = useIsDemo();
  const accounts = useC2cAccounts();
  const name = useVerifiedName();
  const remove = useDeleteAccount();
  const [deleting, setDeleting] = useState<string | null>(null);
  const list = accounts.data ?? [];
  return (
    <C2cPage title={t('accounts.title')} section="accounts" testId="c2c-accounts">
      <Text size="sm" c="dimmed">
        {t('accounts.lead')}
      </Text>
      {token === null ? (
        <LoginPrompt />
      ) : (
        <>
          {demo ? <DemoNote /> : null}
          {accounts.isPending ? (
            <Loading />
          ) : accounts.isError ? (
            <ErrorNote error={accounts.error} retry={() => void accounts.refetch()} />
          ) : list.length === 0 ? (
            <Text c="dimmed" data-testid="c2c-accounts-empty">
              {t('accounts.empty')}
            </Text>
          ) : (
            <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm" data-testid="c2c-accounts-list">
              {list.map((a) => (
                <AccountCard key={a.account_id} account={a} onDelete={() => setDeleting(a.account_id)} />
              ))}
            </SimpleGrid>
          )}
          {remove.error instanceof ApiError ? <ErrorNote error={remove.error} /> : null}
          {name.isPending ? null : name.data ? (
            <AddAccount name={name.data} full={list.length >= C2C_LIMITS.accountsPerCustomerMax} />
          ) : name.isError ? (
            <ErrorNote error={name.error} retry={() => void name.refetch()} />
          ) : (
            <RefusalNote code="C2C_VERIFIED_NAME_REQUIRED" testId="c2c-accounts-noname" />
          )}
        </>
      )}
      <Modal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={t('accounts.deleteConfirmTitle')}
        centered
      >
        <Stack gap="sm">
          <Text size="sm">{t('accounts.deleteConfirmBody')}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setDeleting(null)}>
              {t('common.cancel')}
            </Button>
            <Button
              color="red"
              data-testid="account-delete-yes"
              onClick={() => {
                if (deleting) remove.mutate(deleting);
                setDeleting(null);
              }}
            >
              {t('accounts.deleteConfirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </C2cPage>
  );
}
