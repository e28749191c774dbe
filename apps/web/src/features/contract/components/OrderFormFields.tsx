import type { ContractInstrumentData } from '@bourse/protocol';
import { Group, Select, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useInfo } from '../../../api/info.ts';
import { useToken } from '../../../lib/session.ts';
import { useJurisdiction, useRiskRating } from '../api.ts';
import type { ContractOrder } from '../hooks/useContractOrder.ts';

type FieldsProps = { instrument: ContractInstrumentData; order: ContractOrder };

/** The leverage caps note: shown when the jurisdiction profile's cap is what limits this instrument. */
function LeverageNote({ instrument }: { instrument: ContractInstrumentData }) {
  const { t } = useTranslation('contract');
  const jurisdiction = useJurisdiction();
  const active = jurisdiction.data?.active;
  const cap = active?.leverage_caps[instrument.leverage_class];
  if (!active || cap === undefined || cap >= 100 || cap > instrument.max_leverage) return null;
  return (
    <Text size="xs" c="orange.7" data-testid="leverage-capped" data-cap={cap}>
      {t('form.leverageCapped', { cap, profile: t(`profile.${active.id}`) })}
    </Text>
  );
}

/** The risk-rating note: shown on the real book when the customer's rating is what limits the leverage (modules/suitability). */
function RatingNote({ instrument }: { instrument: ContractInstrumentData }) {
  const { t } = useTranslation('suitability');
  const token = useToken();
  const info = useInfo();
  const rating = useRiskRating();
  const cap = rating.data?.allows.contracts.max_leverage;
  if (token === null || info.data?.is_demo !== 0 || !rating.data || cap === null || cap === undefined)
    return null;
  if (cap > instrument.max_leverage || cap >= 100) return null;
  return (
    <Text size="xs" c="orange.7" data-testid="leverage-rating-capped" data-cap={cap}>
      {t('contractNote', { rating: t(`rating.${rating.data.rating}`), max: cap })}{' '}
      <Link to="/fengxian">{t('link.fengxian')}</Link>
    </Text>
  );
}

/** The limit price (a multiple of the tick), or a disabled "market price" field. */
export function PriceField({ instrument, order }: FieldsProps) {
  const { t } = useTranslation('contract');
  const { fields, priceProblem } = order;
  if (fields.type !== 'limit')
    return <TextInput size="sm" label={t('form.price')} value={t('form.marketPrice')} disabled readOnly />;
  return (
    <TextInput
      size="sm"
      label={t('form.price')}
      description={t('form.tickHint', { tick: instrument.price_tick, quote: instrument.quote })}
      rightSection={
        <Text size="xs" c="dimmed" translate="no">
          {instrument.quote}
        </Text>
      }
      rightSectionWidth={52}
      value={fields.price}
      inputMode="decimal"
      autoComplete="off"
      onChange={(e) => fields.setPrice(e.currentTarget.value)}
      error={priceProblem ? t(`form.hint.${priceProblem}`, { tick: instrument.price_tick }) : undefined}
      data-testid="form-price"
    />
  );
}

/** Lots, with its step and bounds, and what one lot is. */
export function LotsField({ instrument, order }: FieldsProps) {
  const { t } = useTranslation('contract');
  const { fields, lotsProblem } = order;
  const bounds = { step: instrument.lot_step, min: instrument.min_lots, max: instrument.max_lots };
  return (
    <>
      <TextInput
        size="sm"
        label={t('form.lots')}
        description={t('form.lotHint', bounds)}
        value={fields.lots}
        inputMode="decimal"
        autoComplete="off"
        onChange={(e) => fields.setLots(e.currentTarget.value)}
        error={lotsProblem ? t(`form.hint.${lotsProblem}`, bounds) : undefined}
        data-testid="form-lots"
      />
      <Text size="xs" c="dimmed" data-testid="form-lot-size">
        {t('form.lotSize', { size: instrument.contract_size, base: instrument.base })}
      </Text>
    </>
  );
}

/** The leverage choices, lowest first, and the jurisdiction's cap when it applies. */
export function LeverageField({ instrument, order }: FieldsProps) {
  const { t } = useTranslation('contract');
  const { fields } = order;
  const leverageData = [...instrument.leverage_choices]
    .sort((a, b) => a - b)
    .map((c) => ({ value: String(c), label: `${c}×` }));
  return (
    <>
      <Select
        size="sm"
        label={t('form.leverage')}
        description={t('form.leverageMax', { max: instrument.max_leverage })}
        data={leverageData}
        value={String(fields.leverage)}
        allowDeselect={false}
        onChange={(v) => v && fields.setLeverage(Number(v))}
        data-testid="form-leverage"
      />
      <LeverageNote instrument={instrument} />
      <RatingNote instrument={instrument} />
    </>
  );
}

/** Optional take-profit and stop-loss, and the side rule they follow. */
export function TpSlFields({ order }: { order: ContractOrder }) {
  const { t } = useTranslation('contract');
  const { fields, tpSlHint } = order;
  return (
    <>
      <Group grow gap="xs" align="flex-start">
        <TextInput
          size="sm"
          label={t('form.tp')}
          placeholder={t('form.optional')}
          value={fields.tp}
          inputMode="decimal"
          autoComplete="off"
          onChange={(e) => fields.setTp(e.currentTarget.value)}
          error={tpSlHint('tp')}
          data-testid="form-tp"
        />
        <TextInput
          size="sm"
          label={t('form.sl')}
          placeholder={t('form.optional')}
          value={fields.sl}
          inputMode="decimal"
          autoComplete="off"
          onChange={(e) => fields.setSl(e.currentTarget.value)}
          error={tpSlHint('sl')}
          data-testid="form-sl"
        />
      </Group>
      <Text size="xs" c="dimmed" data-testid="form-side-rule">
        {fields.side === 'buy' ? t('form.sideRuleBuy') : t('form.sideRuleSell')}
      </Text>
    </>
  );
}
