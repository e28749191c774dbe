import { moneyScaleOf } from '@bourse/money';
import type { AssetAccountType } from '@bourse/protocol';
import { Num } from '@bourse/ui';
import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Group,
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
import { Link, useSearchParams } from 'react-router';
import { ApiError } from '../../../lib/api.ts';
import { useAssets } from '../../../shared/assets/getAssets.ts';
import { useCurrencies, useTransfer } from '../api.ts';
import { ACCOUNT_TYPES, checkTransferAmount, scaleFor } from '../logic.ts';

function asType(value: string | null, fallback: AssetAccountType): AssetAccountType {
  return (ACCOUNT_TYPES as readonly string[]).includes(value ?? '') ? (value as AssetAccountType) : fallback;
}

/** `/transfer`: between the customer's own account types; the rules are shown before submitting. */
export function TransferPage() {
  const { t } = useTranslation('assets');
  const [params] = useSearchParams();
  const currencies = useCurrencies();
  const assets = useAssets();
  const transfer = useTransfer();
  const [from, setFrom] = useState<AssetAccountType>(asType(params.get('from'), 'spot'));
  const [to, setTo] = useState<AssetAccountType>(
    asType(params.get('to'), from === 'contract' ? 'spot' : 'contract'),
  );
  const [currency, setCurrency] = useState(params.get('currency') ?? 'USDT');
  const [amount, setAmount] = useState('');
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const row = assets.data?.accounts.find((a) => a.type === from)?.rows.find((r) => r.currency === currency);
  const available = row?.available ?? '0';
  const check = checkTransferAmount(amount, currency, available);
  const scale = scaleFor(currency);
  const fieldError =
    from === to
      ? t('transfer.sameAccount')
      : touched && check && check !== 'empty'
        ? check === 'over'
          ? t('transfer.availableIn', { account: t(`accountType.${from}`), amount: available, currency })
          : check === 'precision'
            ? t('transfer.rules', { decimals: scale })
            : t('transfer.rules', { decimals: scale })
        : null;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    setError(null);
    if (check || from === to) return;
    try {
      const done = await transfer.mutateAsync({ currency, amount: amount.trim(), from, to });
      notifications.show({
        color: 'teal',
        message: t('transfer.success', {
          amount: done.amount,
          currency,
          from: t(`accountType.${from}`),
          to: t(`accountType.${to}`),
        }),
      });
      setAmount('');
      setTouched(false);
    } catch (e) {
      if (e instanceof ApiError && e.kind === 'refused') setError(e.message);
    }
  };
  const types = ACCOUNT_TYPES.map((a) => ({ value: a, label: t(`accountType.${a}`) }));

  return (
    <Stack gap="lg" py={{ base: 'md', sm: 32 }} maw={560} mx="auto" w="100%" data-testid="transfer-page">
      <Stack gap={4}>
        <Title order={1} size="h3">
          {t('transfer.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('transfer.subtitle')}
        </Text>
      </Stack>
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="md">
            <Group align="flex-end" wrap="nowrap" gap="xs">
              <Select
                label={t('transfer.from')}
                data={types}
                value={from}
                onChange={(v) => v && setFrom(v as AssetAccountType)}
                allowDeselect={false}
                style={{ flex: 1 }}
                data-testid="transfer-from"
              />
              <ActionIcon
                variant="light"
                size="lg"
                mb={2}
                aria-label={t('transfer.swap')}
                onClick={() => {
                  setFrom(to);
                  setTo(from);
                }}
                data-testid="transfer-swap"
              >
                ⇄
              </ActionIcon>
              <Select
                label={t('transfer.to')}
                data={types}
                value={to}
                onChange={(v) => v && setTo(v as AssetAccountType)}
                allowDeselect={false}
                style={{ flex: 1 }}
                data-testid="transfer-to"
              />
            </Group>
            <Select
              label={t('transfer.currency')}
              data={(currencies.data ?? []).map((c) => c.currency)}
              value={currency}
              onChange={(v) => v && setCurrency(v)}
              allowDeselect={false}
              data-testid="transfer-currency"
            />
            <TextInput
              label={t('transfer.amount')}
              inputMode="decimal"
              value={amount}
              onChange={(e) => setAmount(e.currentTarget.value)}
              onBlur={() => setTouched(true)}
              error={fieldError}
              rightSectionWidth={64}
              rightSection={
                <Anchor
                  component="button"
                  type="button"
                  size="sm"
                  onClick={() => setAmount(available)}
                  data-testid="transfer-max"
                >
                  {t('transfer.max')}
                </Anchor>
              }
              data-testid="transfer-amount"
            />
            <Group justify="space-between">
              <Text size="sm" c="dimmed">
                {t('common.available')} ({t(`accountType.${from}`)})
              </Text>
              <Text size="sm" fw={600} data-testid="transfer-available">
                <Num value={available} kind="money" scale={moneyScaleOf(currency)} /> {currency}
              </Text>
            </Group>
            <Text size="xs" c="dimmed" data-testid="transfer-rules">
              {t('transfer.rules', { decimals: scale })}
            </Text>
            {error && (
              <Alert color="red" data-testid="transfer-error">
                {error}
              </Alert>
            )}
            <Button
              type="submit"
              size="md"
              loading={transfer.isPending}
              // Until the balances are in, "available" is unknown: a submit would be refused as over it.
              disabled={from === to || !assets.data}
              data-testid="transfer-submit"
            >
              {t('transfer.submit')}
            </Button>
          </Stack>
        </form>
      </Paper>
      <Anchor component={Link} to="/moneyRecord" size="sm">
        {t('records.title.money')}
      </Anchor>
    </Stack>
  );
}
