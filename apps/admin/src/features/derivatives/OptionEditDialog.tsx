import { compareDecimal, isDecimal } from '@bourse/money';
import { type AdminOptionSettingsData, DERIVATIVES_LIMITS } from '@bourse/protocol';
import { ActionIcon, Button, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLang } from '../../app/i18n.ts';
import { type OptionSettingsChange, saveOptionSettings } from './api.ts';
import {
  type DurationRow,
  durationCountOk,
  durationProblems,
  durationRows,
  serialiseDurations,
} from './durations.ts';
import { percentText, ReasonFooter, SettingsDialog, useReasonForm } from './shared.tsx';

const LIMITS = {
  min: DERIVATIVES_LIMITS.optionDurationMinSeconds,
  max: DERIVATIVES_LIMITS.optionDurationMaxSeconds,
  count: DERIVATIVES_LIMITS.optionDurationsMax,
};

/** Rows of seconds + payout rate (up to 8), added and removed in place. */
function DurationsEditor(props: { rows: DurationRow[]; onChange: (rows: DurationRow[]) => void }) {
  const { t } = useTranslation();
  const lang = useLang();
  const problems = durationProblems(props.rows);
  const set = (i: number, patch: Partial<DurationRow>) =>
    props.onChange(props.rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <Stack gap="xs" data-testid="durations-editor">
      <Text size="sm" fw={500}>
        {t('derivatives.options.durations')}
      </Text>
      <Text size="xs" c="dimmed">
        {t('derivatives.options.durationsHint', {
          max: LIMITS.count,
          min: LIMITS.min,
          maxSeconds: LIMITS.max,
        })}
      </Text>
      {props.rows.map((row, i) => {
        const problem = problems[i];
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place
          <Group key={i} gap="xs" align="flex-start" wrap="nowrap" data-testid="duration-row">
            <TextInput
              aria-label={t('derivatives.options.seconds')}
              placeholder={t('derivatives.options.seconds')}
              value={row.seconds}
              onChange={(e) => set(i, { seconds: e.currentTarget.value })}
              inputMode="numeric"
              maxLength={6}
              error={
                problem === 'seconds'
                  ? t('derivatives.options.hint.seconds', { min: LIMITS.min, max: LIMITS.max })
                  : problem === 'duplicate'
                    ? t('derivatives.options.hint.duplicate')
                    : undefined
              }
              style={{ flex: 1 }}
              data-testid="duration-seconds"
            />
            <TextInput
              aria-label={t('derivatives.options.payoutRate')}
              placeholder={t('derivatives.options.payoutRate')}
              value={row.rate}
              onChange={(e) => set(i, { rate: e.currentTarget.value })}
              inputMode="decimal"
              maxLength={20}
              rightSection={
                isDecimal(row.rate) ? (
                  <Text size="xs" c="dimmed" pr={6}>
                    {percentText(row.rate.trim(), lang)}
                  </Text>
                ) : null
              }
              rightSectionWidth={64}
              error={problem === 'rate' ? t('derivatives.options.hint.rate') : undefined}
              style={{ flex: 1 }}
              data-testid="duration-rate"
            />
            <ActionIcon
              variant="subtle"
              color="red"
              size="lg"
              aria-label={t('derivatives.options.remove')}
              title={t('derivatives.options.remove')}
              disabled={props.rows.length <= 1}
              onClick={() => props.onChange(props.rows.filter((_, j) => j !== i))}
              data-testid="duration-remove"
            >
              ×
            </ActionIcon>
          </Group>
        );
      })}
      {!durationCountOk(props.rows) ? (
        <Text size="xs" c="red">
          {t('derivatives.options.hint.count', { max: LIMITS.count })}
        </Text>
      ) : null}
      <Button
        variant="light"
        size="xs"
        style={{ alignSelf: 'flex-start' }}
        disabled={props.rows.length >= LIMITS.count}
        onClick={() => props.onChange([...props.rows, { seconds: '', rate: '' }])}
        data-testid="duration-add"
      >
        {t('derivatives.options.add')}
      </Button>
    </Stack>
  );
}

/** One instrument's option settings: switch, stakes, durations; changed values only, with a reason. */
export function OptionEditDialog(props: {
  settings: AdminOptionSettingsData;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const s = props.settings;
  const startRows = durationRows(s.durations);
  const [enabled, setEnabled] = useState(s.enabled);
  const [minStake, setMinStake] = useState(s.min_stake);
  const [maxStake, setMaxStake] = useState(s.max_stake);
  const [rows, setRows] = useState<DurationRow[]>(startRows);
  const form = useReasonForm();

  const minOk = isDecimal(minStake);
  const maxOk = isDecimal(maxStake);
  const stakesOk = minOk && maxOk && compareDecimal(minStake.trim(), maxStake.trim()) <= 0;
  const rowsOk = durationCountOk(rows) && durationProblems(rows).every((p) => p === null);

  const change: OptionSettingsChange = { symbol: s.symbol, reason: form.reason.trim() };
  if (enabled !== s.enabled) change.enabled = enabled;
  if (minStake.trim() !== s.min_stake) change.min_stake = minStake.trim();
  if (maxStake.trim() !== s.max_stake) change.max_stake = maxStake.trim();
  if (rowsOk && serialiseDurations(rows) !== serialiseDurations(startRows))
    change.durations = serialiseDurations(rows);
  const changed = Object.keys(change).length > 2;

  const submit = () =>
    form.submit(changed && stakesOk && rowsOk, () => saveOptionSettings(change), props.onSaved);

  return (
    <SettingsDialog
      title={t('derivatives.options.editTitle', { symbol: s.symbol })}
      note={t('derivatives.options.appliesToNew')}
      enabled={enabled}
      onEnabled={setEnabled}
      enabledTestId="option-edit-enabled"
      onClose={props.onClose}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label={t('derivatives.options.minStake')}
          value={minStake}
          onChange={(e) => setMinStake(e.currentTarget.value)}
          inputMode="decimal"
          maxLength={40}
          error={!minOk ? t('derivatives.contracts.hint.decimal') : undefined}
          data-testid="option-edit-min"
        />
        <TextInput
          label={t('derivatives.options.maxStake')}
          value={maxStake}
          onChange={(e) => setMaxStake(e.currentTarget.value)}
          inputMode="decimal"
          maxLength={40}
          error={
            !maxOk
              ? t('derivatives.contracts.hint.decimal')
              : minOk && !stakesOk
                ? t('derivatives.options.hint.stakes')
                : undefined
          }
          data-testid="option-edit-max"
        />
      </SimpleGrid>
      <DurationsEditor rows={rows} onChange={setRows} />
      <ReasonFooter
        form={form}
        onCancel={props.onClose}
        onSave={submit}
        saveTestId="option-edit-save"
        unchanged={form.tried && !changed}
      />
    </SettingsDialog>
  );
}
