import type { WithdrawRuleView } from '@bourse/protocol';
import { List, Paper, Text, ThemeIcon } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { RULE_KEYS, ruleParams } from '../logic.ts';

/** Every enabled rule in the customer's words, before they submit (a refusal names the same rule). */
export function RulesList({ rules, usedToday }: { rules: readonly WithdrawRuleView[]; usedToday: number }) {
  const { t } = useTranslation('withdraw');
  const tzName = (tz: string) => (tz === 'Asia/Hong_Kong' ? t('rules.timezone.hongKong') : tz);
  return (
    <Paper withBorder radius="md" p="sm" data-testid="withdraw-rules">
      <Text fw={600} size="sm" mb={4}>
        {t('rules.title')}
      </Text>
      <List
        size="sm"
        spacing={2}
        icon={
          <ThemeIcon size={8} radius="xl" color="gray" variant="filled">
            <span />
          </ThemeIcon>
        }
      >
        {rules
          .filter((rule) => rule.enabled)
          .map((rule) => (
            <List.Item key={rule.code} data-testid={`withdraw-rule-${rule.code}`}>
              {t(`rules.${RULE_KEYS[rule.code] ?? 'window'}` as const, ruleParams(rule, usedToday, tzName))}
            </List.Item>
          ))}
      </List>
      <Text size="xs" c="dimmed" mt={4}>
        {t('rules.intro')}
      </Text>
    </Paper>
  );
}
