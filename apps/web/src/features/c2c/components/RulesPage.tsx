import { C2C_LIMITS, type C2cRulesData } from '@bourse/protocol';
import { Badge, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useC2cRules } from '../api.ts';
import { C2cPage, ErrorNote, Loading, useC2cWords } from './parts.tsx';

function Section({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="lg" p="md" data-testid={testId}>
      <Stack gap="xs">
        <Title order={3} size="h5">
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

function Rules({ rules }: { rules: C2cRulesData }) {
  const { t } = useTranslation('c2c');
  const words = useC2cWords();
  return (
    <Stack gap="md">
      <Section title={t('rules.fees')} testId="rule-fees">
        <Text size="sm" data-testid="rule-fee-orderer" data-value={rules.fee_orderer}>
          {t('rules.feeOrderer', { fee: words.exact(rules.fee_orderer) })}
        </Text>
      </Section>
      <Section title={t('rules.validity')} testId="rule-validity">
        <List size="sm" spacing={4}>
          <List.Item data-testid="rule-window">
            {t('rules.defaultWindow', { minutes: rules.default_window_minutes })}
          </List.Item>
          <List.Item>
            {t('rules.windowRange', {
              min: C2C_LIMITS.paymentWindowMinutesMin,
              max: C2C_LIMITS.paymentWindowMinutesMax,
            })}
          </List.Item>
          <List.Item data-testid="rule-expiry">{t('rules.expiry')}</List.Item>
          <List.Item data-testid="rule-confirm-window">
            {t('rules.confirmWindow', { minutes: rules.confirm_window_minutes })}
          </List.Item>
          <List.Item>{t('rules.reminder', { minutes: rules.reminder_before_minutes })}</List.Item>
        </List>
      </Section>
      <Section title={t('rules.names')} testId="rule-names">
        <List size="sm" spacing={4}>
          <List.Item data-testid="rule-payer-name" data-rule={rules.payer_name_rule}>
            {t('rules.payerName')}
          </List.Item>
          <List.Item data-rule={rules.account_name_rule}>{t('rules.accountName')}</List.Item>
          <List.Item data-testid="rule-order-tier" data-rule={rules.order_tier}>
            {t('rules.orderTier', { tier: t(`rules.tier.${rules.order_tier}`) })}
          </List.Item>
          <List.Item>{t('rules.merchantTier', { tier: t(`rules.tier.${rules.merchant_tier}`) })}</List.Item>
        </List>
      </Section>
      <Section title={t('rules.limits')} testId="rule-limits">
        <Text size="sm">{t('rules.limitsOrder')}</Text>
        <List type="ordered" size="sm" spacing={4}>
          {rules.limits_order.map((rule) => (
            <List.Item key={rule} data-testid="rule-limit" data-rule={rule}>
              {t(`rules.limit.${rule}` as never, { defaultValue: rule })}
            </List.Item>
          ))}
        </List>
        <List size="sm" spacing={4}>
          {rules.age_bands.map((band) => (
            <List.Item key={band.age_days_from} data-testid="rule-age-band">
              {band.max_amount === null
                ? t('rules.ageBandNone', { days: band.age_days_from })
                : t('rules.ageBand', { days: band.age_days_from, max: words.exact(band.max_amount) })}
            </List.Item>
          ))}
          <List.Item data-testid="rule-open-orders">
            {t('rules.openOrders', { max: rules.open_orders_max })}
          </List.Item>
        </List>
      </Section>
      <Section title={t('rules.disputes')} testId="rule-disputes">
        <List size="sm" spacing={4}>
          <List.Item>{t('rules.disputeWho', { max: C2C_LIMITS.evidencePerDisputeMax })}</List.Item>
          <List.Item>{t('rules.disputeRespond', { minutes: rules.dispute_response_minutes })}</List.Item>
          <List.Item data-testid="rule-four-eyes" data-value={rules.four_eyes_above}>
            {t('rules.fourEyes', { amount: words.exact(rules.four_eyes_above) })}
          </List.Item>
        </List>
        <Text size="sm">{t('rules.auto')}</Text>
        <List size="sm" spacing={4}>
          {rules.auto_resolution.map((rule) => (
            <List.Item key={rule.when} data-testid="rule-auto" data-when={rule.when}>
              {t('rules.autoOutcome', {
                when: t(`rules.autoWhen.${rule.when}` as never, { defaultValue: rule.when }),
                outcome: t(`outcome.${rule.outcome}`),
              })}
            </List.Item>
          ))}
        </List>
        <Text size="sm">{t('rules.otherwise')}</Text>
        <Text size="sm" fw={600}>
          {t('rules.disputeReasons')}
        </Text>
        <Group gap={6}>
          {rules.dispute_reasons.map((r) => (
            <Badge key={r} variant="light" color="orange">
              {t(`disputeReason.${r}`)}
            </Badge>
          ))}
        </Group>
      </Section>
      <Section title={t('rules.methods')} testId="rule-methods">
        <Group gap={6}>
          {rules.methods.map((m) => (
            <Badge key={m} variant="light">
              {words.method(m)}
            </Badge>
          ))}
        </Group>
      </Section>
      <Section title={t('rules.states')} testId="rule-states">
        <Group gap={6}>
          {rules.states.map((s) => (
            <Badge key={s} variant="outline" color="gray">
              {words.state(s)}
            </Badge>
          ))}
        </Group>
      </Section>
    </Stack>
  );
}

/** `/c2c_rule`: the rules as the server sends them (`c2cRules`), nothing of them written here. */
export function RulesPage() {
  const { t } = useTranslation('c2c');
  const rules = useC2cRules();
  return (
    <C2cPage title={t('rules.title')} section="rules" testId="c2c-rules">
      <Text size="sm" c="dimmed">
        {t('rules.lead')}
      </Text>
      {rules.isPending ? (
        <Loading />
      ) : rules.isError ? (
        <ErrorNote error={rules.error} retry={() => void rules.refetch()} />
      ) : (
        <Rules rules={rules.data} />
      )}
    </C2cPage>
  );
}
