import {
  Button,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api.ts';
import { ErrorNote, Figure, ReasonDialog, useAmountText } from '../../app/ui.tsx';
import {
  CURRENCIES,
  diffOf,
  type FieldName,
  type Fields,
  feeOn,
  fieldsOf,
  fromUnits,
  type Problem,
  paramsOf,
  percentToBps,
  type Rule,
  type RuleCode,
  scaleOf,
  TIMEZONES,
  toUnits,
} from './policyForm.ts';

const NAMES = {
  currency_chain: 'currencyChain',
  window: 'window',
  min_amount: 'minAmount',
  max_amount: 'maxAmount',
  fee: 'fee',
  daily_count: 'dailyCount',
  turnover: 'turnover',
} as const;
const PERCENT_FIELDS = new Set(['address_bps', 'bank_bps', 'percent']);
/** The fee preview's sample amount, in the minimum rule's currency. */
const SAMPLE = '1000';

/** The rule as a customer reads it (the `rules.*` sentences of the withdrawal screen). */
function useEffectText() {
  const { t } = useTranslation('withdraw');
  return (code: RuleCode, enabled: boolean, f: Fields) => {
    if (!enabled) return t('admin.policy.off');
    switch (code) {
      case 'currency_chain':
        return t('rules.currencyChain', { allowed: f.allowed });
      case 'window':
        return t('rules.window', { start: f.start, end: f.end, timezone: f.timezone });
      case 'min_amount':
        return t('rules.minAmount', { amount: f.amount, currency: f.currency });
      case 'max_amount':
        return t('rules.maxAmount', { amount: f.amount, currency: f.currency });
      case 'fee':
        return t('rules.fee', { address: f.address_bps, bank: f.bank_bps });
      case 'daily_count':
        return t('admin.policy.daily', { max: f.max, timezone: f.timezone });
      case 'turnover':
        return t('admin.policy.turnover', { percent: f.percent });
    }
  };
}

/** The fee on a sample amount to an address and to a bank card, before and after. */
function FeePreview(props: { before: Fields; after: Fields; currency: string }) {
  const { t } = useTranslation('withdraw');
  const amount = useAmountText();
  const scale = scaleOf(props.currency);
  const units = toUnits(SAMPLE, scale);
  const rows = (['address_bps', 'bank_bps'] as const).map((name) => {
    const was = percentToBps(props.before[name] ?? '0') ?? 0;
    const now = percentToBps(props.after[name] ?? '0') ?? 0;
    const f = (bps: number) => amount(fromUnits(feeOn(units, bps), scale));
    const r = (bps: number) => amount(fromUnits(units - feeOn(units, bps), scale));
    return { name, fee: [f(was), f(now)], received: [r(was), r(now)] };
  });
  return (
    <Stack gap={4} data-testid="fee-preview">
      <Text size="sm" fw={600}>
        {t('admin.policy.sample', { amount: SAMPLE, currency: props.currency })}
      </Text>
      <Table withTableBorder>
        <Table.Thead>
          <Table.Tr>
            <Table.Th />
            <Table.Th ta="right">{t('records.columns.fee')}</Table.Th>
            <Table.Th ta="right">{t('records.columns.received')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.name}>
              <Table.Td>{t(`admin.policy.fields.${row.name}`)}</Table.Td>
              <Table.Td ta="right">
                <Figure>
                  {row.fee[0]} → {row.fee[1]}
                </Figure>
              </Table.Td>
              <Table.Td ta="right">
                <Figure>
                  {row.received[0]} → {row.received[1]}
                </Figure>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

function RuleForm(props: {
  rule: Rule;
  rules: Partial<Record<RuleCode, Rule>>;
  onSaved: (code: RuleCode) => void;
}) {
  const { t } = useTranslation('withdraw');
  const client = useQueryClient();
  const effect = useEffectText();
  const { rule } = props;
  const saved = fieldsOf(rule);
  const [enabled, setEnabled] = useState(rule.enabled);
  const [fields, setFields] = useState<Fields>(saved);
  const [touched, setTouched] = useState(false);
  const [reviewing, setReviewing] = useState(false);
  const result = paramsOf(rule.code, fields, props.rules);
  const problems: Record<string, Problem> = 'problems' in result ? result.problems : {};
  const diff = diffOf({ enabled: rule.enabled, fields: saved }, { enabled, fields });
  const set = (name: string) => (value: string) => {
    setFields((f) => ({ ...f, [name]: value }));
    setTouched(true);
  };
  const error = (name: string) => {
    const p = problems[name];
    return touched && p ? t(`admin.policy.errors.${p.key}`, p.values ?? {}) : undefined;
  };
  const input = (name: string, extra: { description?: string; rightSection?: string } = {}) => (
    <TextInput
      label={t(`admin.policy.fields.${name as FieldName}`)}
      value={fields[name] ?? ''}
      onChange={(e) => set(name)(e.currentTarget.value)}
      error={error(name)}
      data-testid={`policy-${rule.code}-${name}`}
      {...extra}
    />
  );
  const zone = (name: string) => (
    <Select
      label={t('admin.policy.fields.timezone')}
      value={fields[name] ?? ''}
      onChange={(v) => v && set(name)(v)}
      data={[...new Set([...TIMEZONES, fields[name] ?? ''])].filter(Boolean)}
      allowDeselect={false}
      error={error(name)}
    />
  );
  const name = NAMES[rule.code];
  /** A diff value as typed, with its unit (fees and turnover are percentages). */
  const shown = (field: string, value: string) => {
    if (field === 'enabled') return t(`admin.policy.onOff.${value as 'true'}`);
    return PERCENT_FIELDS.has(field) && value !== '' ? `${value}%` : value;
  };
  return (
    <Paper withBorder p="md" radius="md" data-testid={`rule-${rule.code}`}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Text fw={600}>{t(`admin.ruleNames.${name}`)}</Text>
          <Switch
            label={t('admin.enabled')}
            checked={enabled}
            onChange={(e) => setEnabled(e.currentTarget.checked)}
          />
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {rule.code === 'currency_chain'
            ? input('allowed', { description: t('admin.policy.hints.allowed') })
            : null}
          {rule.code === 'window' ? (
            <>
              {input('start', { description: t('admin.policy.hints.time') })}
              {input('end', { description: t('admin.policy.hints.time') })}
              {zone('timezone')}
            </>
          ) : null}
          {rule.code === 'min_amount' || rule.code === 'max_amount' ? (
            <>
              {input('amount', { rightSection: fields.currency ?? '' })}
              <Select
                label={t('admin.policy.fields.currency')}
                value={fields.currency ?? ''}
                onChange={(v) => v && set('currency')(v)}
                data={CURRENCIES}
                allowDeselect={false}
                error={error('currency')}
              />
            </>
          ) : null}
          {rule.code === 'fee' ? (
            <>
              {input('address_bps', { rightSection: '%', description: t('admin.policy.hints.fee') })}
              {input('bank_bps', { rightSection: '%', description: t('admin.policy.hints.fee') })}
            </>
          ) : null}
          {rule.code === 'daily_count' ? (
            <>
              {input('max', { description: t('admin.policy.hints.whole', { min: 1, max: 1000 }) })}
              {zone('timezone')}
            </>
          ) : null}
          {rule.code === 'turnover'
            ? input('percent', {
                rightSection: '%',
                description: t('admin.policy.hints.whole', { min: 0, max: 1000 }),
              })
            : null}
        </SimpleGrid>
        <Text size="xs" c="dimmed">
          {effect(rule.code, rule.enabled, saved)}
        </Text>
        <Group justify="flex-end">
          <Button
            size="xs"
            disabled={diff.length === 0 || 'problems' in result}
            onClick={() => setReviewing(true)}
            data-testid={`rule-review-${rule.code}`}
          >
            {t('admin.policy.review')}
          </Button>
        </Group>
      </Stack>
      <ReasonDialog
        opened={reviewing}
        title={t('admin.policy.previewTitle', { rule: t(`admin.ruleNames.${name}`) })}
        text={t('admin.policy.previewText')}
        confirmLabel={t('admin.save')}
        size="lg"
        onClose={() => setReviewing(false)}
        onSubmit={async (reason) => {
          if (!('params' in result)) return;
          await api.post('withdrawals/rules/update', {
            code: rule.code,
            enabled: enabled ? '1' : '0',
            params: JSON.stringify(result.params),
            reason,
          });
          setReviewing(false);
          props.onSaved(rule.code);
          await client.invalidateQueries({ queryKey: ['withdrawals/rules'] });
        }}
      >
        <Table withTableBorder data-testid="policy-diff">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('admin.policy.field')}</Table.Th>
              <Table.Th>{t('admin.policy.before')}</Table.Th>
              <Table.Th>{t('admin.policy.after')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {diff.map((d) => (
              <Table.Tr key={d.field}>
                <Table.Td>{t(`admin.policy.fields.${d.field as FieldName}`)}</Table.Td>
                <Table.Td>{shown(d.field, d.from)}</Table.Td>
                <Table.Td>
                  <Text size="sm" fw={600}>
                    {shown(d.field, d.to)}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Stack gap={2}>
          <Text size="sm">
            {t('admin.policy.customerReadsNow')} {effect(rule.code, rule.enabled, saved)}
          </Text>
          <Text size="sm" fw={600} data-testid="policy-effect">
            {t('admin.policy.customerWillRead')} {effect(rule.code, enabled, fields)}
          </Text>
        </Stack>
        {rule.code === 'fee' ? (
          <FeePreview
            before={saved}
            after={fields}
            currency={String(props.rules.min_amount?.params.currency ?? 'USDT')}
          />
        ) : null}
      </ReasonDialog>
    </Paper>
  );
}

/**
 * The withdrawal policy as forms: each rule's typed fields, checked as typed (the server checks the
 * same and refuses by name); a change is reviewed — old → new, what the customer will read, the
 * fee on a sample amount — and saved with a reason, audited.
 */
export default function WithdrawalRulesScreen() {
  const { t } = useTranslation('withdraw');
  const rules = useQuery({
    queryKey: ['withdrawals/rules'],
    queryFn: () => api.get<{ rules: Rule[] }>('withdrawals/rules'),
  });
  const [saved, setSaved] = useState<RuleCode | null>(null);
  const list = rules.data?.rules ?? [];
  const byCode = Object.fromEntries(list.map((r) => [r.code, r])) as Partial<Record<RuleCode, Rule>>;
  return (
    <Stack data-testid="withdrawal-rules-screen">
      <Title order={2}>{t('admin.rulesTitle')}</Title>
      <Text size="sm" c="dimmed">
        {t('admin.policy.intro')}
      </Text>
      <ErrorNote error={rules.error} />
      {saved ? (
        <Text size="sm" c="green" data-testid="rule-saved">
          {t('admin.policy.savedRule', { rule: t(`admin.ruleNames.${NAMES[saved]}`) })}
        </Text>
      ) : null}
      {list.map((rule) => (
        <RuleForm
          key={`${rule.code}-${JSON.stringify(rule.params)}-${rule.enabled}`}
          rule={rule}
          rules={byCode}
          onSaved={setSaved}
        />
      ))}
    </Stack>
  );
}
