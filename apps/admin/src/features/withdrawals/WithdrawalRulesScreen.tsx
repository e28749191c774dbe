import { Button, Group, Paper, Stack, Switch, Text, Textarea, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api.ts';
import { ErrorNote } from '../../app/ui.tsx';

type Rule = { code: string; enabled: boolean; params: Record<string, unknown> };
const NAMES = {
  currency_chain: 'currencyChain',
  window: 'window',
  min_amount: 'minAmount',
  max_amount: 'maxAmount',
  fee: 'fee',
  daily_count: 'dailyCount',
  turnover: 'turnover',
} as const;

function RuleCard({ rule }: { rule: Rule }) {
  const { t } = useTranslation('withdraw');
  const client = useQueryClient();
  const [enabled, setEnabled] = useState(rule.enabled);
  const [params, setParams] = useState(JSON.stringify(rule.params, null, 2));
  const save = useMutation({
    mutationFn: () =>
      api.post('withdrawals/rules/update', { code: rule.code, enabled: enabled ? '1' : '0', params }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['withdrawals/rules'] }),
  });
  const name = NAMES[rule.code as keyof typeof NAMES];
  return (
    <Paper withBorder p="md" radius="md" data-testid={`rule-${rule.code}`}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Text fw={600}>{name ? t(`admin.ruleNames.${name}`) : rule.code}</Text>
          <Switch
            label={t('admin.enabled')}
            checked={enabled}
            onChange={(e) => setEnabled(e.currentTarget.checked)}
          />
        </Group>
        <Textarea
          label={t('admin.params')}
          value={params}
          onChange={(e) => setParams(e.currentTarget.value)}
          autosize
          minRows={2}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        />
        <ErrorNote error={save.error} />
        <Group justify="flex-end">
          {save.isSuccess ? (
            <Text size="sm" c="green">
              {t('admin.saved')}
            </Text>
          ) : null}
          <Button size="xs" loading={save.isPending} onClick={() => save.mutate()}>
            {t('admin.save')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** The withdrawal policy: each rule's switch and parameters (operator data), saved one by one, audited. */
export default function WithdrawalRulesScreen() {
  const { t } = useTranslation('withdraw');
  const rules = useQuery({
    queryKey: ['withdrawals/rules'],
    queryFn: () => api.get<{ rules: Rule[] }>('withdrawals/rules'),
  });
  return (
    <Stack data-testid="withdrawal-rules-screen">
      <Title order={2}>{t('admin.rulesTitle')}</Title>
      <Text size="sm" c="dimmed">
        {t('rules.intro')}
      </Text>
      <ErrorNote error={rules.error} />
      {(rules.data?.rules ?? []).map((rule) => (
        <RuleCard key={`${rule.code}-${JSON.stringify(rule.params)}-${rule.enabled}`} rule={rule} />
      ))}
    </Stack>
  );
}
