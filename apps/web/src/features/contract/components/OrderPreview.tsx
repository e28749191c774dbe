import { Num } from '@bourse/ui';
import { Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ContractOrder } from '../hooks/useContractOrder.ts';

/** A label on the left, its figure on the right. */
export function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Group justify="space-between" gap={4} wrap="nowrap">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      {children}
    </Group>
  );
}

/** Why there is no preview yet: the server's refusal of the typed order, or a hint to type one. */
function PreviewNote({ order }: { order: ContractOrder }) {
  const { t } = useTranslation('contract');
  const { quoteRefusal, quoteInput } = order;
  if (quoteRefusal && quoteInput)
    return (
      <Text size="xs" c="orange.7" data-testid="form-preview-refusal" data-reason={quoteRefusal.reason ?? ''}>
        {quoteRefusal.message}
      </Text>
    );
  if (!quoteInput)
    return (
      <Text size="xs" c="dimmed">
        {t('form.previewHint')}
      </Text>
    );
  return null;
}

/** The server's preview (`getContractQuote`): price, value, margin, fees, funds and liquidation price. */
export function OrderPreview({ priceScale, order }: { priceScale: number; order: ContractOrder }) {
  const { t } = useTranslation('contract');
  const { q } = order;
  return (
    <Stack gap={2} data-testid="form-preview" data-ready={q ? 'yes' : 'no'}>
      <Text size="xs" fw={600}>
        {t('form.preview')}
      </Text>
      <PreviewNote order={order} />
      <Row label={t('form.openPrice')}>
        <Num value={q?.price} kind="price" scale={priceScale} size="xs" data-testid="preview-price" />
      </Row>
      <Row label={t('form.notional')}>
        <Num value={q?.notional_usdt} kind="fiat" size="xs" suffix=" USDT" data-testid="preview-notional" />
      </Row>
      <Row label={t('form.margin')}>
        <Num
          value={q?.margin}
          decimals={2}
          size="xs"
          suffix=" USDT"
          data-testid="preview-margin"
          data-value={q?.margin ?? ''}
        />
      </Row>
      <Row label={t('form.fee')}>
        <Num
          value={q?.fee}
          decimals={2}
          size="xs"
          suffix=" USDT"
          data-testid="preview-fee"
          data-value={q?.fee ?? ''}
        />
      </Row>
      <Row label={t('form.required')}>
        <Num
          value={q?.required}
          decimals={2}
          size="xs"
          fw={600}
          suffix=" USDT"
          data-testid="preview-required"
        />
      </Row>
      <Row label={t('form.available')}>
        <Num value={q?.available} kind="fiat" size="xs" suffix=" USDT" data-testid="preview-available" />
      </Row>
      <Row label={t('form.liquidationPrice')}>
        <Num
          value={q?.liquidation_price}
          kind="price"
          scale={priceScale}
          size="xs"
          data-testid="preview-liq"
        />
      </Row>
      <Row label={t('form.closeFee')}>
        <Num value={q?.close_fee} decimals={2} size="xs" suffix=" USDT" data-testid="preview-close-fee" />
      </Row>
    </Stack>
  );
}
