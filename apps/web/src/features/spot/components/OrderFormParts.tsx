import type { SpotMarketData, SpotOrderType, SpotSide } from '@bourse/protocol';
import { Num } from '@bourse/ui';
import { Button, Group, Slider, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { RuleHints } from '../../../shared/spot/components/RuleHints.tsx';
import { SLIDER_STEPS, show } from '../../../shared/spot/logic/amounts.ts';
import { ratePct } from '../../../shared/spot/logic/rules.ts';
import type { SpotOrder } from '../hooks/useSpotOrder.ts';

type PartProps = { market: SpotMarketData; side: SpotSide; kind: SpotOrderType; order: SpotOrder };

/** The limit price (or a disabled "market price" field) and the quantity. */
export function PriceQtyFields({ market, side, kind, order }: PartProps) {
  const { t } = useTranslation('trade');
  const { price, qty } = order;
  return (
    <>
      {kind === 'limit' ? (
        <TextInput
          size="sm"
          label={t('form.price')}
          rightSection={
            <Text size="xs" c="dimmed">
              {market.quote}
            </Text>
          }
          rightSectionWidth={56}
          value={price}
          inputMode="decimal"
          autoComplete="off"
          onChange={(e) => order.setPrice(e.currentTarget.value)}
          error={price !== '' && order.priceUnits === null ? t('form.invalidNumber') : undefined}
          data-testid={`price-${side}`}
        />
      ) : (
        <TextInput size="sm" label={t('form.price')} value={t('form.marketPrice')} disabled readOnly />
      )}
      <TextInput
        size="sm"
        label={t('form.qty')}
        rightSection={
          <Text size="xs" c="dimmed">
            {market.base}
          </Text>
        }
        rightSectionWidth={56}
        value={qty}
        inputMode="decimal"
        autoComplete="off"
        onChange={(e) => {
          order.setQty(e.currentTarget.value);
          order.setPct(0);
        }}
        error={qty !== '' && order.qtyUnits === null ? t('form.invalidNumber') : undefined}
        data-testid={`qty-${side}`}
      />
    </>
  );
}

/** The percent-of-balance slider and its step buttons. */
export function PercentSlider({ side, order }: { side: SpotSide; order: SpotOrder }) {
  const { t } = useTranslation('trade');
  const color = side === 'buy' ? 'teal' : 'red';
  return (
    <>
      <Slider
        value={order.pct}
        onChange={order.onSlide}
        step={25}
        min={0}
        max={100}
        restrictToMarks
        marks={[0, ...SLIDER_STEPS].map((v) => ({ value: v }))}
        label={(v) => t('form.percent', { pct: v })}
        color={color}
        aria-label={t('form.percentLabel')}
        mx={6}
        my={4}
        data-testid={`slider-${side}`}
      />
      <Group gap={4} grow>
        {SLIDER_STEPS.map((v) => (
          <Button
            key={v}
            size="compact-xs"
            variant={order.pct === v ? 'light' : 'default'}
            color={color}
            onClick={() => order.onSlide(v)}
            data-testid={`pct-${side}-${v}`}
          >
            {t('form.percent', { pct: v })}
          </Button>
        ))}
      </Group>
    </>
  );
}

/** A label on the left, its figure on the right. */
function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Group justify="space-between" gap={4}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      {children}
    </Group>
  );
}

/** The estimate (market), the order value, the fees, a thin-book warning and the rules broken. */
export function OrderPreview({ market, side, kind, order }: PartProps) {
  const { t } = useTranslation('trade');
  const { fee, estimate } = order;
  const quoteDigits = Math.max(market.price_scale, 2);
  const suffix = ` ${market.quote}`;
  return (
    <Stack gap={2} data-testid={`preview-${side}`}>
      {kind === 'market' ? (
        <Row label={t('form.estimatePrice')}>
          <Num
            value={estimate?.avgPrice == null ? null : show(estimate.avgPrice, market.price_scale)}
            kind="price"
            scale={market.price_scale}
            size="xs"
          />
        </Row>
      ) : null}
      <Row label={kind === 'market' ? t('form.estimate') : t('form.notional')}>
        <Num
          value={fee?.notional == null ? null : show(fee.notional, quoteDigits, 'ceil')}
          size="xs"
          suffix={suffix}
          data-testid={`notional-${side}`}
        />
      </Row>
      {kind === 'limit' ? (
        <Row label={t('form.feeMaker', { rate: ratePct(market.maker_fee_rate) })}>
          <Num
            value={fee?.maker == null ? null : show(fee.maker, 8, 'ceil')}
            size="xs"
            suffix={suffix}
            data-testid={`fee-maker-${side}`}
          />
        </Row>
      ) : null}
      <Row
        label={
          kind === 'limit'
            ? t('form.feeTaker', { rate: ratePct(market.taker_fee_rate) })
            : t('form.feeMarket', { rate: ratePct(market.taker_fee_rate) })
        }
      >
        <Num
          value={fee?.taker == null ? null : show(fee.taker, 8, 'ceil')}
          size="xs"
          suffix={suffix}
          data-testid={`fee-taker-${side}`}
        />
      </Row>
      {estimate && !estimate.complete ? (
        <Text size="xs" c="orange.7" data-testid={`thin-${side}`}>
          {t('form.thinBook')}
        </Text>
      ) : null}
      <RuleHints breaks={order.breaks} market={market} side={side} />
    </Stack>
  );
}
