import { ActionIcon, Alert, Button, Group, Paper, Select, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ConfirmPanel, RefusalAlert } from '../../../shared/spot/components/ConversionParts.tsx';
import { show } from '../../../shared/spot/logic/amounts.ts';
import type { Exchange } from '../hooks/useExchange.ts';
import { ExchangeQuote } from './ExchangeQuote.tsx';

type ExchangeProps = { exchange: Exchange };

/** From and to (with the swap between them), and a note when no market joins the two. */
function CurrencyPair({ exchange }: ExchangeProps) {
  const { t } = useTranslation('trade');
  const { currencies, from, to, market, step } = exchange;
  return (
    <>
      <Group align="flex-end" gap="xs" wrap="nowrap">
        <Select
          label={t('exchange.from')}
          data={currencies}
          value={from}
          onChange={(v) => {
            exchange.setFrom(v);
            exchange.setAmount('');
          }}
          allowDeselect={false}
          searchable
          flex={1}
          disabled={step === 'confirm'}
          data-testid="exchange-from"
        />
        <ActionIcon
          variant="light"
          size="lg"
          mb={2}
          onClick={exchange.swap}
          aria-label={t('exchange.swap')}
          disabled={step === 'confirm'}
          data-testid="exchange-swap"
        >
          ⇄
        </ActionIcon>
        <Select
          label={t('exchange.to')}
          data={currencies.filter((c) => c !== from)}
          value={to}
          onChange={exchange.setTo}
          allowDeselect={false}
          searchable
          flex={1}
          disabled={step === 'confirm'}
          data-testid="exchange-to"
        />
      </Group>
      {from && to && !market ? (
        <Alert color="orange" variant="light" data-testid="exchange-no-market">
          {t('exchange.noMarket', { from, to })}
        </Alert>
      ) : null}
    </>
  );
}

/** The amount of `from` to pay, with the balance available and a "max" button. */
function AmountField({ exchange }: ExchangeProps) {
  const { t } = useTranslation('trade');
  const { amount, amountUnits, availableText, available, from, market, step, fromDigits } = exchange;
  return (
    <TextInput
      label={t('exchange.amount')}
      description={
        availableText !== null && from
          ? t('exchange.available', { amount: availableText, currency: from })
          : undefined
      }
      value={amount}
      onChange={(e) => exchange.setAmount(e.currentTarget.value)}
      inputMode="decimal"
      autoComplete="off"
      disabled={!market || step === 'confirm'}
      error={amount !== '' && amountUnits === null ? t('form.invalidNumber') : undefined}
      rightSectionWidth={64}
      rightSection={
        <Button
          size="compact-xs"
          variant="subtle"
          disabled={!market || availableText === null || step === 'confirm'}
          onClick={() => availableText && exchange.setAmount(show(available, fromDigits))}
          data-testid="exchange-max"
        >
          {t('exchange.max')}
        </Button>
      }
      data-testid="exchange-amount"
    />
  );
}

/** On the form: the preview button; on the confirm step: what is paid and received, back or confirm. */
function ExchangeActions({ exchange }: ExchangeProps) {
  const { t } = useTranslation('trade');
  const { quote, market, from, to, fromDigits, toDigits } = exchange;
  if (exchange.step === 'form')
    return (
      <Button
        size="md"
        disabled={!quote || quote.qty === 0n || quote.fill.avgPrice === null}
        onClick={exchange.preview}
        data-testid="exchange-preview"
      >
        {t('exchange.preview')}
      </Button>
    );
  return (
    <ConfirmPanel
      testId="exchange-confirm"
      bg="var(--mantine-color-default-hover)"
      title={t('exchange.confirmTitle')}
      summary={
        quote && market && from && to
          ? `${show(quote.pay, fromDigits, 'ceil')} ${from} → ${show(quote.receive, toDigits)} ${to}`
          : null
      }
      backLabel={t('exchange.back')}
      backTestId="exchange-back"
      onBack={() => exchange.setStep('form')}
      confirmLabel={t('exchange.confirm')}
      confirmTestId="exchange-confirm-button"
      onConfirm={exchange.submit}
      submitting={exchange.submitting}
      disabled={!quote}
    />
  );
}

/** The exchange form: currencies, amount, the live quote, the server's refusal, then preview and confirm. */
export function ExchangeForm({ exchange }: ExchangeProps) {
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <Stack gap="md">
        <CurrencyPair exchange={exchange} />
        <AmountField exchange={exchange} />
        {exchange.market ? <ExchangeQuote exchange={exchange} market={exchange.market} /> : null}
        <RefusalAlert refusal={exchange.refusal} testId="exchange-refusal" />
        <ExchangeActions exchange={exchange} />
      </Stack>
    </Paper>
  );
}
