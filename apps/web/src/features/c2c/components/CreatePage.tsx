import type { C2cAccountData, C2cMethod, C2cOfferData } from '@bourse/protocol';
import {
  Alert,
  Anchor,
  Button,
  Group,
  List,
  Modal,
  Paper,
  Radio,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../../lib/api.ts';
import { useToken } from '../../../lib/session.ts';
import { useC2cAccounts, useC2cOffer, useCreateOrder, useIsDemo, useVerifiedName } from '../api.ts';
import { type AmountProblem, amountProblem, C2C_ROUTES, orderMax, quoteFiat } from '../logic.ts';
import {
  Amount,
  C2cPage,
  DemoNote,
  ErrorNote,
  Fact,
  Line,
  Loading,
  LoginPrompt,
  NoFeeNote,
  RefusalNote,
  useC2cWords,
} from './parts.tsx';

function problemText(t: (k: never, o?: object) => string, problem: AmountProblem, coin: string) {
  return t(`create.problem.${problem.kind}` as never, { ...problem, coin });
}

/** The rules that apply, stated before ordering: the name, the window, the deadline, after paying. */
function RulesBeforeOrdering({
  offer,
  minutes,
  name,
}: {
  offer: C2cOfferData;
  minutes: number;
  /** The verified real name; null: none (refused); undefined: not known yet or logged out. */
  name: string | null | undefined;
}) {
  const { t } = useTranslation('c2c');
  return (
    <Paper withBorder radius="md" p="md" data-testid="c2c-create-rules">
      <Stack gap="xs">
        <Text fw={700}>{t('create.rulesTitle')}</Text>
        {name === null ? <RefusalNote code="C2C_VERIFIED_NAME_REQUIRED" testId="c2c-create-noname" /> : null}
        <List size="sm" spacing={4}>
          {name === undefined ? (
            <List.Item data-testid="c2c-create-rule-name">{t('rules.payerName')}</List.Item>
          ) : name !== null ? (
            <List.Item data-testid="c2c-create-rule-name" data-name={name}>
              {offer.side === 'buy' ? t('create.ruleName', { name }) : t('create.ruleNameSell', { name })}
            </List.Item>
          ) : null}
          <List.Item data-testid="c2c-create-rule-window">{t('create.ruleWindow', { minutes })}</List.Item>
          <List.Item data-testid="c2c-create-rule-deadline">{t('create.ruleDeadline')}</List.Item>
          <List.Item>{t('create.ruleDispute')}</List.Item>
          <List.Item>{t('create.ruleEscrow')}</List.Item>
        </List>
        <NoFeeNote />
      </Stack>
    </Paper>
  );
}

/** Selling: which of my collection accounts of the method the merchant pays into. */
function AccountPicker({
  method,
  accounts,
  value,
  onChange,
}: {
  method: C2cMethod;
  accounts: C2cAccountData[];
  value: string | null;
  onChange: (id: string) => void;
}) {
  const { t } = useTranslation('c2c');
  const words = useC2cWords();
  const mine = accounts.filter((a) => a.method === method);
  return (
    <Stack gap={6} data-testid="c2c-create-accounts">
      <Text size="sm" fw={600}>
        {t('create.account')}
      </Text>
      <Text size="xs" c="dimmed">
        {t('create.accountHint', { method: words.method(method) })}
      </Text>
      {mine.length === 0 ? (
        <Text size="sm" c="orange" data-testid="c2c-create-noaccount">
          {t('create.noAccount', { method: words.method(method) })}
        </Text>
      ) : (
        <Radio.Group value={value} onChange={onChange}>
          <Stack gap={6}>
            {mine.map((a) => (
              <Radio
                key={a.account_id}
                value={a.account_id}
                data-testid="c2c-create-account"
                label={[a.name, a.bank_name, a.iban ?? a.account_no ?? a.wallet_id]
                  .filter(Boolean)
                  .join(' · ')}
              />
            ))}
          </Stack>
        </Radio.Group>
      )}
      <Anchor
        component={Link}
        to={C2C_ROUTES.accounts}
        size="sm"
        fw={600}
        data-testid="c2c-create-add-account"
      >
        {t('create.addAccount')}
      </Anchor>
    </Stack>
  );
}

function CreateForm({ offer }: { offer: C2cOfferData }) {
  const { t } = useTranslation('c2c');
  const words = useC2cWords();
  const navigate = useNavigate();
  const token = useToken();
  const demo = useIsDemo();
  const name = useVerifiedName();
  const accounts = useC2cAccounts();
  const create = useCreateOrder();
  const [amount, setAmount] = useState('');
  const [method, setMethod] = useState<C2cMethod>(offer.methods[0]?.method ?? 'bank');
  const [accountId, setAccountId] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const selling = offer.side === 'sell';
  const minutes = offer.methods.find((m) => m.method === method)?.window_minutes ?? 0;
  const problem = amount.trim() === '' ? null : amountProblem(amount, offer, method);
  const fiat = problem === null && amount.trim() !== '' ? quoteFiat(offer, amount) : null;
  const verifiedName = name.data ?? null;
  const account =
    accounts.data?.find((a) => a.account_id === accountId && a.method === method) ??
    accounts.data?.find((a) => a.method === method) ??
    null;
  const ready = token !== null && fiat !== null && (!selling || account !== null) && verifiedName !== null;
  const submit = () => {
    setConfirming(false);
    create.mutate(
      {
        offer_id: offer.offer_id,
        amount: amount.trim(),
        method,
        ...(selling && account ? { account_id: account.account_id } : {}),
      },
      { onSuccess: (order) => navigate(C2C_ROUTES.order(order.order_id)) },
    );
  };
  return (
    <Stack gap="md">
      <Paper withBorder radius="lg" p="md">
        <Stack gap="md">
          <Group justify="space-between" wrap="wrap" gap="sm">
            <Stack gap={0}>
              <Text fw={700} data-testid="c2c-create-merchant">
                {offer.merchant_name}
              </Text>
              <Text size="xs" c="dimmed">
                {offer.completion_rate === null
                  ? t('offers.completionNone')
                  : t('offers.completion', { rate: offer.completion_rate })}
              </Text>
            </Stack>
            <Fact label={t('create.price')}>
              {offer.price === null ? (
                t('offers.noPrice')
              ) : (
                <Amount value={offer.price} currency={offer.fiat} testId="c2c-create-price" />
              )}
            </Fact>
          </Group>
          <TextInput
            label={t('create.amount', { coin: offer.coin })}
            description={t('create.amountHint', {
              min: words.exact(offer.min_amount),
              max: words.exact(orderMax(offer)),
              coin: offer.coin,
            })}
            value={amount}
            onChange={(e) => setAmount(e.currentTarget.value)}
            inputMode="decimal"
            autoComplete="off"
            error={problem ? problemText(t as never, problem, offer.coin) : null}
            rightSectionWidth={64}
            rightSection={
              <Button
                size="compact-xs"
                variant="subtle"
                onClick={() => setAmount(orderMax(offer))}
                data-testid="c2c-create-max"
              >
                {t('create.max')}
              </Button>
            }
            data-testid="c2c-create-amount"
          />
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm" data-testid="c2c-create-quote">
            <Fact label={selling ? t('create.youReceive') : t('create.youPay')}>
              {fiat === null ? (
                '—'
              ) : (
                <Amount value={fiat} currency={offer.fiat} fiat testId="c2c-create-fiat" size="lg" fw={700} />
              )}
            </Fact>
            <Fact label={selling ? t('create.coinsYouSell') : t('create.coinsYouGet')}>
              {fiat === null ? (
                '—'
              ) : (
                <Amount value={amount.trim()} currency={offer.coin} testId="c2c-create-coins" />
              )}
            </Fact>
            <Fact label={t('create.fee')}>
              <span data-testid="c2c-create-fee">{t('create.feeZero')}</span>
            </Fact>
          </SimpleGrid>
          <Radio.Group
            label={t('create.method')}
            value={method}
            onChange={(value) => setMethod(value as C2cMethod)}
            data-testid="c2c-create-methods"
          >
            <Stack gap={6} mt={6}>
              {offer.methods.map((m) => (
                <Radio
                  key={m.method}
                  value={m.method}
                  data-testid={`c2c-create-method-${m.method}`}
                  label={t('offers.window', { method: words.method(m.method), minutes: m.window_minutes })}
                />
              ))}
            </Stack>
          </Radio.Group>
          {selling && token !== null ? (
            accounts.isError ? (
              <ErrorNote error={accounts.error} retry={() => void accounts.refetch()} />
            ) : (
              <AccountPicker
                method={method}
                accounts={accounts.data ?? []}
                value={account?.account_id ?? null}
                onChange={setAccountId}
              />
            )
          ) : null}
        </Stack>
      </Paper>
      <RulesBeforeOrdering
        offer={offer}
        minutes={minutes}
        name={token === null || name.isPending ? undefined : verifiedName}
      />
      {token === null ? <LoginPrompt /> : null}
      {demo && offer.book !== 'demo' ? <DemoNote /> : null}
      {create.error instanceof ApiError ? <ErrorNote error={create.error} /> : null}
      <Button
        size="md"
        color={selling ? 'red' : 'teal'}
        disabled={!ready}
        loading={create.isPending}
        onClick={() => setConfirming(true)}
        data-testid="c2c-create-submit"
      >
        {t('create.order')}
      </Button>
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={t('create.confirmTitle')}
        centered
        data-testid="c2c-create-confirm"
      >
        <Stack gap="sm">
          <Text size="sm" data-testid="c2c-create-confirm-text">
            {t('create.confirmBody', {
              side: words.side(offer.side),
              amount: words.exact(amount.trim() || '0'),
              coin: offer.coin,
              fiat: `${words.fiat(fiat ?? '0')} ${offer.fiat}`,
              method: words.method(method),
            })}
          </Text>
          <Line label={t('create.fee')}>{t('create.feeZero')}</Line>
          <Alert color="yellow" variant="light" p="xs">
            <Text size="sm">{t('create.confirmDeadline', { minutes })}</Text>
            <Text size="sm">{t('create.ruleDeadline')}</Text>
          </Alert>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('common.cancel')}
            </Button>
            <Button onClick={submit} data-testid="c2c-create-confirm-button">
              {t('create.confirmButton')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

/** `/c2c_create?offer_id=`: the amount, the live quote, the method, the account, the rules, then order. */
export function CreatePage() {
  const { t } = useTranslation('c2c');
  const [params] = useSearchParams();
  const offerId = params.get('offer_id');
  const offer = useC2cOffer(offerId);
  const title = offer.data
    ? t(offer.data.side === 'buy' ? 'create.buyTitle' : 'create.sellTitle', {
        coin: offer.data.coin,
        fiat: offer.data.fiat,
      })
    : t('create.title');
  return (
    <C2cPage title={title} section={null} testId="c2c-create">
      {offerId === null || offerId === '' || (offer.isSuccess && offer.data === null) ? (
        <Stack gap="sm" data-testid="c2c-create-gone">
          <Title order={4}>{t('create.gone')}</Title>
          <Anchor component={Link} to={C2C_ROUTES.offers} fw={600}>
            {t('create.back')}
          </Anchor>
        </Stack>
      ) : offer.isPending ? (
        <Loading />
      ) : offer.isError ? (
        <ErrorNote error={offer.error} retry={() => void offer.refetch()} />
      ) : offer.data ? (
        <CreateForm offer={offer.data} />
      ) : null}
    </C2cPage>
  );
}
