import type { SpotMarketData } from '@bourse/protocol';
import { Num } from '@bourse/ui';
import {
  Button,
  Group,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useTicker } from '../../../lib/marketStore.ts';
import { ConfirmPanel, RefusalAlert } from '../../../shared/spot/components/ConversionParts.tsx';
import { show } from '../../../shared/spot/logic/amounts.ts';
import type { QuickBuy } from '../hooks/useQuickBuy.ts';
import { PRESETS, QUOTE } from '../logic/quickBuy.ts';
import { QuickPreview } from './QuickPreview.tsx';

type FormProps = { buy: QuickBuy; market: SpotMarketData };

function CoinTile({
  symbol,
  base,
  selected,
  onPick,
}: {
  symbol: string;
  base: string;
  selected: boolean;
  onPick: () => void;
}) {
  const ticker = useTicker(symbol);
  return (
    <UnstyledButton
      onClick={onPick}
      p="sm"
      style={{
        border: `1px solid var(--mantine-color-${selected ? 'blue-6' : 'default-border'})`,
        borderRadius: 8,
        background: selected ? 'var(--mantine-color-blue-light)' : undefined,
        minWidth: 104,
      }}
      data-testid="quick-coin"
      data-symbol={symbol}
      data-selected={selected}
    >
      <Text fw={700} translate="no">
        {base}
      </Text>
      <Num value={ticker?.last} size="xs" />
      <Num value={ticker?.change_pct} size="xs" percent signed trend="auto" ml={6} />
    </UnstyledButton>
  );
}

/** The coins on offer, each a tile with its last price and change; fixed on the confirm step. */
function CoinPicker({ buy, market }: FormProps) {
  const { t } = useTranslation('trade');
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500}>
        {t('quickBuy.coin')}
      </Text>
      <Group gap="xs">
        {buy.coins.map((m) => (
          <CoinTile
            key={m.symbol}
            symbol={m.symbol}
            base={m.base}
            selected={m.symbol === market.symbol}
            onPick={() => {
              if (buy.step === 'confirm') return;
              buy.setSymbol(m.symbol);
            }}
          />
        ))}
      </Group>
    </Stack>
  );
}

/** The USDT to spend, with the balance available and preset amounts. */
function AmountFields({ buy }: { buy: QuickBuy }) {
  const { t } = useTranslation('trade');
  const { amount, step } = buy;
  return (
    <>
      <TextInput
        label={t('quickBuy.amount')}
        description={t('exchange.available', {
          amount: buy.availableText ?? '--',
          currency: QUOTE,
        })}
        rightSection={
          <Text size="xs" c="dimmed">
            {QUOTE}
          </Text>
        }
        rightSectionWidth={56}
        value={amount}
        onChange={(e) => buy.setAmount(e.currentTarget.value)}
        inputMode="decimal"
        autoComplete="off"
        disabled={step === 'confirm'}
        error={amount !== '' && buy.amountUnits === null ? t('form.invalidNumber') : undefined}
        data-testid="quick-amount"
      />
      <SegmentedControl
        value={PRESETS.includes(amount as (typeof PRESETS)[number]) ? amount : ''}
        onChange={buy.setAmount}
        data={PRESETS.map((p) => ({ value: p, label: p }))}
        disabled={step === 'confirm'}
        data-testid="quick-presets"
      />
    </>
  );
}

/** On the form: the preview button; on the confirm step: what is paid and bought, back or confirm. */
function QuickActions({ buy, market }: FormProps) {
  const { t } = useTranslation('trade');
  const { quote } = buy;
  const quoteDigits = Math.max(market.price_scale, 2);
  if (buy.step === 'form')
    return (
      <Button
        size="md"
        color="teal"
        disabled={!quote || quote.qty === 0n}
        onClick={buy.preview}
        data-testid="quick-preview-button"
      >
        {t('quickBuy.preview')}
      </Button>
    );
  return (
    <ConfirmPanel
      testId="quick-confirm"
      title={t('quickBuy.confirmTitle')}
      summary={
        quote
          ? `${show(quote.pay, quoteDigits, 'ceil')} ${QUOTE} → ${show(quote.qty, market.quantity_scale)} ${market.base}`
          : null
      }
      backLabel={t('quickBuy.back')}
      backTestId="quick-back"
      onBack={() => buy.setStep('form')}
      confirmLabel={t('quickBuy.confirm')}
      confirmTestId="quick-confirm-button"
      onConfirm={buy.submit}
      submitting={buy.submitting}
      color="teal"
    />
  );
}

/** The quick-buy form: coin, amount, the live preview, the server's refusal, then preview and confirm. */
export function QuickBuyForm({ buy, market }: FormProps) {
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <Stack gap="md">
        <CoinPicker buy={buy} market={market} />
        <AmountFields buy={buy} />
        <QuickPreview buy={buy} market={market} />
        <RefusalAlert refusal={buy.refusal} testId="quick-refusal" />
        <QuickActions buy={buy} market={market} />
      </Stack>
    </Paper>
  );
}
