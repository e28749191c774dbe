import { compareDecimal, isDecimal, isWholeInRange, signOf } from '@bourse/money';
import type { AdminContractSettingsData } from '@bourse/protocol';
import { SimpleGrid, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../app/api.ts';
import { type ContractSettingsChange, saveContractSettings } from './api.ts';
import { ReasonFooter, SettingsDialog, useReasonForm } from './shared.tsx';

type TextField =
  | 'spread'
  | 'fee_per_lot'
  | 'max_leverage'
  | 'min_lots'
  | 'max_lots'
  | 'liquidation_level'
  | 'margin_topup_max'
  | 'funding_rate'
  | 'funding_interval_hours';

function initial(s: AdminContractSettingsData): Record<TextField, string> {
  return {
    spread: s.spread,
    fee_per_lot: s.fee_per_lot,
    max_leverage: String(s.max_leverage),
    min_lots: s.min_lots,
    max_lots: s.max_lots,
    liquidation_level: s.liquidation_level,
    margin_topup_max: s.margin_topup_max,
    funding_rate: s.funding_rate ?? '',
    funding_interval_hours: s.funding_interval_hours === null ? '' : String(s.funding_interval_hours),
  };
}

/** Client-side hints (the server checks again and has the last word). */
function hints(s: AdminContractSettingsData, v: Record<TextField, string>) {
  const problems: Partial<Record<TextField, 'decimal' | 'leverage' | 'lots' | 'level' | 'interval'>> = {};
  for (const f of ['spread', 'fee_per_lot', 'min_lots', 'max_lots', 'margin_topup_max'] as const) {
    if (!isDecimal(v[f])) problems[f] = 'decimal';
  }
  if (!isWholeInRange(v.max_leverage, 1, s.instrument_max_leverage)) problems.max_leverage = 'leverage';
  if (!problems.min_lots && !problems.max_lots && compareDecimal(v.min_lots, v.max_lots) > 0)
    problems.min_lots = 'lots';
  if (!isDecimal(v.liquidation_level)) problems.liquidation_level = 'decimal';
  else if (signOf(v.liquidation_level) <= 0 || compareDecimal(v.liquidation_level, '1') > 0)
    problems.liquidation_level = 'level';
  if (s.kind === 'perpetual') {
    if (!/^-?\d+(?:\.\d+)?$/.test(v.funding_rate.trim())) problems.funding_rate = 'decimal';
    if (!isWholeInRange(v.funding_interval_hours, 1, 24)) problems.funding_interval_hours = 'interval';
  }
  return problems;
}

/**
 * Edits one contract instrument's operator settings: only changed values are sent, with the
 * required reason. A refusal (CONTRACT_SETTING_INVALID names the field) stays in the dialog, on the
 * field it names, in the reader's language.
 */
export function ContractEditDialog(props: {
  settings: AdminContractSettingsData;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const s = props.settings;
  const start = initial(s);
  const [values, setValues] = useState(start);
  const [enabled, setEnabled] = useState(s.enabled);
  const form = useReasonForm();
  const { error } = form;
  const problems = hints(s, values);
  const refusedField =
    error instanceof ApiError && error.reason === 'CONTRACT_SETTING_INVALID'
      ? String(error.params?.field ?? '')
      : '';

  const change: ContractSettingsChange = { symbol: s.symbol, reason: form.reason.trim() };
  if (enabled !== s.enabled) change.enabled = enabled;
  for (const f of Object.keys(values) as TextField[]) {
    const next = values[f].trim();
    if (next === start[f]) continue;
    if (f === 'max_leverage' || f === 'funding_interval_hours') change[f] = Number.parseInt(next, 10);
    else change[f] = next;
  }
  const changed = Object.keys(change).length > 2;

  const submit = () =>
    form.submit(
      changed && Object.keys(problems).length === 0,
      () => saveContractSettings(change),
      props.onSaved,
    );

  const field = (f: TextField, label: string, hint: string) => {
    const problem = problems[f];
    const refused = refusedField === f;
    return (
      <TextInput
        label={label}
        description={hint}
        value={values[f]}
        onChange={(e) => {
          const value = e.currentTarget.value;
          setValues((v) => ({ ...v, [f]: value }));
        }}
        error={
          refused
            ? t('derivatives.contracts.refusedField')
            : problem
              ? t(`derivatives.contracts.hint.${problem}`, { max: s.instrument_max_leverage })
              : undefined
        }
        inputMode={f === 'max_leverage' || f === 'funding_interval_hours' ? 'numeric' : 'decimal'}
        maxLength={40}
        data-testid={`contract-edit-${f}`}
      />
    );
  };

  return (
    <SettingsDialog
      title={t('derivatives.contracts.editTitle', { symbol: s.symbol })}
      note={t('derivatives.contracts.appliesToNew')}
      enabled={enabled}
      onEnabled={setEnabled}
      enabledTestId="contract-edit-enabled"
      onClose={props.onClose}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {field('spread', t('derivatives.contracts.spread'), t('derivatives.contracts.hint.decimal'))}
        {field('fee_per_lot', t('derivatives.contracts.fee'), t('derivatives.contracts.hint.decimal'))}
        {field(
          'max_leverage',
          t('derivatives.contracts.leverageOperator'),
          t('derivatives.contracts.hint.leverage', { max: s.instrument_max_leverage }),
        )}
        {field(
          'liquidation_level',
          t('derivatives.contracts.liquidation'),
          t('derivatives.contracts.hint.level'),
        )}
        {field('min_lots', t('derivatives.contracts.minLots'), t('derivatives.contracts.hint.decimal'))}
        {field('max_lots', t('derivatives.contracts.maxLots'), t('derivatives.contracts.hint.decimal'))}
        {field('margin_topup_max', t('derivatives.contracts.topup'), t('derivatives.contracts.hint.decimal'))}
        {s.kind === 'perpetual'
          ? field(
              'funding_rate',
              t('derivatives.contracts.fundingRate'),
              t('derivatives.contracts.hint.decimal'),
            )
          : null}
        {s.kind === 'perpetual'
          ? field(
              'funding_interval_hours',
              t('derivatives.contracts.fundingInterval'),
              t('derivatives.contracts.hint.interval'),
            )
          : null}
      </SimpleGrid>
      <Text size="xs" c="dimmed">
        {t('derivatives.contracts.effectiveNote', {
          instrument: s.instrument_max_leverage,
          effective: s.effective_max_leverage,
        })}
      </Text>
      <ReasonFooter
        form={form}
        onCancel={props.onClose}
        onSave={submit}
        saveTestId="contract-edit-save"
        unchanged={form.tried && !changed}
        unchangedTestId="contract-edit-unchanged"
      />
    </SettingsDialog>
  );
}
