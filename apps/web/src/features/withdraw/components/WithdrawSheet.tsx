import type { WithdrawalView } from '@bourse/protocol';
import { Num, Sheet } from '@bourse/ui';
import {
  Alert,
  Anchor,
  Button,
  Group,
  Loader,
  PasswordInput,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useDestinations, useWithdraw, useWithdrawRules } from '../api/index.ts';
import { checkAmount, minimumOf, preview } from '../logic.ts';
import { FormAlert } from './FormAlert.tsx';
import { RulesList } from './RulesList.tsx';

type Method = 'address' | 'bank';
type Errors = Partial<Record<'destination' | 'amount' | 'tradePassword' | 'googleCode', string>>;

/**
 * The withdrawal sheet: the rules first, then destination (saved address or bank card), amount with
 * fee and received preview, trade password (and Google code when enabled), submit, and the result.
 */
export function WithdrawSheet({
  currency,
  opened,
  onClose,
}: {
  currency: string;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('withdraw');
  const [done, setDone] = useState<WithdrawalView | null>(null);
  const close = () => {
    setDone(null);
    onClose();
  };
  return (
    <Sheet
      opened={opened}
      onClose={close}
      title={t('sheet.title', { currency })}
      closeLabel={t('common.close')}
      data-testid="withdraw-sheet"
    >
      {opened ? (
        done ? (
          <Done withdrawal={done} onAnother={() => setDone(null)} onClose={close} />
        ) : (
          <WithdrawForm currency={currency} onDone={setDone} />
        )
      ) : null}
    </Sheet>
  );
}

function Done({
  withdrawal,
  onAnother,
  onClose,
}: {
  withdrawal: WithdrawalView;
  onAnother: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('withdraw');
  return (
    <Stack gap="md" data-testid="withdraw-done">
      <Alert color="teal" variant="light" title={t('sheet.doneTitle')}>
        {t('sheet.doneText', { amount: withdrawal.amount, currency: withdrawal.currency })}
      </Alert>
      <Group grow>
        <Button variant="light" onClick={onAnother}>
          {t('sheet.another')}
        </Button>
        <Button component={Link} to="/tbjl" onClick={onClose} data-testid="withdraw-to-records">
          {t('sheet.records')}
        </Button>
      </Group>
    </Stack>
  );
}

function WithdrawForm({ currency, onDone }: { currency: string; onDone: (w: WithdrawalView) => void }) {
  const { t } = useTranslation('withdraw');
  const rules = useWithdrawRules(currency);
  const destinations = useDestinations(currency, true);
  const submit = useWithdraw();
  const [method, setMethod] = useState<Method>('address');
  const [destinationId, setDestinationId] = useState<string | null>(null);
  const [amount, setAmount] = useState('');
  const [tradePassword, setTradePassword] = useState('');
  const [googleCode, setGoogleCode] = useState('');
  const [errors, setErrors] = useState<Errors>({});

  if (rules.isLoading || destinations.loading || !rules.data) {
    return (
      <Group justify="center" py="xl">
        <Loader size="sm" />
      </Group>
    );
  }
  const data = rules.data;
  const list = method === 'address' ? destinations.address : destinations.bank;
  const chosen = list.some((d) => d.id === destinationId) ? destinationId : (list[0]?.id ?? null);
  const shown = preview(data.rules, { method, amount, currency });
  const min = minimumOf(data.rules, currency);
  const googleOn = data.google === '1';

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found: Errors = {};
    if (!chosen) found.destination = t('sheet.errors.destination');
    const checked = checkAmount(amount, currency);
    if (!checked.ok) found.amount = t(`sheet.errors.${checked.error}`, { decimals: checked.decimals });
    if (!/^\d{6}$/.test(tradePassword)) found.tradePassword = t('sheet.errors.tradePassword');
    if (googleOn && !/^\d{6}$/.test(googleCode)) found.googleCode = t('sheet.errors.googleCode');
    setErrors(found);
    if (Object.keys(found).length > 0 || !chosen) return;
    submit.mutate(
      { method, destinationId: chosen, currency, amount: amount.trim(), tradePassword, googleCode },
      { onSuccess: onDone },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm">
        <RulesList rules={data.rules} usedToday={data.used_today} />
        {data.transaction_password === '0' ? (
          <Alert color="yellow" variant="light" data-testid="withdraw-need-trade-password">
            <Stack gap={6}>
              <Text size="sm">{t('sheet.needTradePassword')}</Text>
              <Button
                component={Link}
                to="/bindmpwd"
                size="xs"
                w="fit-content"
                data-testid="withdraw-set-trade-password"
              >
                {t('sheet.setTradePassword')}
              </Button>
            </Stack>
          </Alert>
        ) : null}
        <FormAlert error={submit.error} testId="withdraw-error" />
        <SegmentedControl
          fullWidth
          value={method}
          onChange={(v) => {
            setMethod(v as Method);
            setDestinationId(null);
          }}
          data={[
            { value: 'address', label: t('sheet.toAddress') },
            { value: 'bank', label: t('sheet.toBank') },
          ]}
          aria-label={t('sheet.method')}
          data-testid="withdraw-method"
        />
        {list.length === 0 ? (
          <Alert variant="light" color="gray" data-testid="withdraw-no-destination">
            <Group justify="space-between" gap="xs">
              <Text size="sm">
                {method === 'address' ? t('sheet.noAddress', { currency }) : t('sheet.noBank')}
              </Text>
              <Anchor component={Link} to={method === 'address' ? '/address' : '/bankAdd'} size="sm">
                {method === 'address' ? t('sheet.addAddress') : t('sheet.addBank')}
              </Anchor>
            </Group>
          </Alert>
        ) : (
          <Select
            label={method === 'address' ? t('sheet.address') : t('sheet.bank')}
            placeholder={t('sheet.choose')}
            data={list.map((d) => ({ value: d.id, label: d.detail ? `${d.label} — ${d.detail}` : d.label }))}
            value={chosen}
            onChange={setDestinationId}
            allowDeselect={false}
            error={errors.destination}
            comboboxProps={{ withinPortal: true }}
            data-testid="withdraw-destination"
          />
        )}
        <TextInput
          label={t('sheet.amount')}
          placeholder={min ? t('sheet.amountPlaceholder', { min }) : undefined}
          inputMode="decimal"
          autoComplete="off"
          value={amount}
          onChange={(e) => {
            setAmount(e.currentTarget.value);
            setErrors((x) => ({ ...x, amount: undefined }));
          }}
          error={errors.amount}
          rightSectionWidth={56}
          rightSection={
            <Anchor
              component="button"
              type="button"
              size="sm"
              onClick={() => setAmount(data.withdrawable)}
              data-testid="withdraw-all"
            >
              {t('sheet.all')}
            </Anchor>
          }
          description={
            <span data-testid="withdraw-withdrawable">
              {t('sheet.available', { amount: data.available, withdrawable: data.withdrawable, currency })}
            </span>
          }
          data-testid="withdraw-amount"
        />
        {data.held.map((h) => (
          <Alert
            key={h.code}
            color="yellow"
            variant="light"
            title={t('sheet.heldTitle', { amount: h.amount, currency })}
            data-testid={`withdraw-held-${h.code}`}
          >
            <Text size="sm">
              {t('sheet.heldTurnover', {
                percent: h.params.percent,
                more: h.release.trade_more,
                amount: h.amount,
                currency,
              })}
            </Text>
          </Alert>
        ))}
        <Group justify="space-between" data-testid="withdraw-preview">
          <Text size="sm" c="dimmed">
            {t('sheet.fee')}: <Num value={shown?.fee ?? '0'} /> {currency}
          </Text>
          <Text size="sm" fw={600}>
            {t('sheet.received')}: <Num value={shown?.received ?? '0'} /> {currency}
          </Text>
        </Group>
        <PasswordInput
          label={t('sheet.tradePassword')}
          placeholder={t('sheet.tradePasswordPlaceholder')}
          inputMode="numeric"
          maxLength={6}
          autoComplete="off"
          value={tradePassword}
          onChange={(e) => {
            setTradePassword(e.currentTarget.value);
            setErrors((x) => ({ ...x, tradePassword: undefined }));
          }}
          error={errors.tradePassword}
          data-testid="withdraw-trade-password"
        />
        {googleOn ? (
          <TextInput
            label={t('sheet.googleCode')}
            inputMode="numeric"
            maxLength={6}
            autoComplete="one-time-code"
            value={googleCode}
            onChange={(e) => setGoogleCode(e.currentTarget.value)}
            error={errors.googleCode}
            data-testid="withdraw-google-code"
          />
        ) : null}
        <Button
          type="submit"
          size="md"
          loading={submit.isPending}
          disabled={data.transaction_password === '0'}
          data-testid="withdraw-submit"
        >
          {t('sheet.submit')}
        </Button>
      </Stack>
    </form>
  );
}
