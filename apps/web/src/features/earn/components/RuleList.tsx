import type { ProfitInfoData } from '@bourse/protocol';
import { List, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { requiredTiers, tiersPhrase } from '../../../shared/verification/tiers.ts';
import { useEarnWords } from './parts.tsx';

type Sentence = { id: string; text: string };

/**
 * The product's rule page, generated from its data alone in the reader's language: term, rate and its
 * daily figure, the example, when rewards post, where the money comes from and how much is set aside,
 * the early-redemption rule with its penalty in currency, the delay, who may buy (the jurisdiction
 * profile's verification rule and the product's own), where it is sold.
 */
export function useRuleSentences(info: ProfitInfoData): Sentence[] {
  const { t } = useTranslation('earn');
  const words = useEarnWords();
  const { product: p, example } = info;
  const cur = p.currency;
  const m = (value: string) => words.money(value, cur);
  const sentences: Sentence[] = [
    { id: 'term', text: t('rule.term', { count: p.term_days, currency: cur }) },
    {
      id: 'rate',
      text: t('rule.rate', { annual: words.rate(p.annual_rate), daily: words.rate(p.daily_rate) }),
    },
    {
      id: 'example',
      text: t('rule.example', {
        amount: m(example.amount),
        daily: m(example.daily_reward),
        total: m(example.total_reward),
        currency: cur,
      }),
    },
    {
      id: 'posting',
      text: t('rule.posting', {
        hour: String(p.cutoff.hour).padStart(2, '0'),
        zone: words.zone(p.cutoff.time_zone),
      }),
    },
    {
      id: 'source',
      text: t('rule.source', { name: p.funding_account.name, source: p.funding_account.source }),
    },
    {
      id: 'reserve',
      text: t('rule.reserve', {
        reserved: m(p.reserved),
        subscribed: m(p.subscribed),
        capacity: m(p.capacity),
        left: m(p.capacity_left),
        currency: cur,
      }),
    },
    {
      id: 'redeem',
      text: t(`rule.redeem.${p.redeem_rule}`, {
        rate: p.penalty_rate !== null ? words.rate(p.penalty_rate) : '',
        penalty: m(example.penalty_day_one),
        forfeit: m(example.forfeit_last_day),
        amount: m(example.amount),
        currency: cur,
      }),
    },
  ];
  if (p.redeem_rule !== 'none') {
    sentences.push({
      id: 'delay',
      text: p.redeem_delay_days === 0 ? t('rule.delayNone') : t('rule.delay', { count: p.redeem_delay_days }),
    });
  }
  // What buying asks, in the server's order: the jurisdiction profile's `earn` rule, then the product's tier.
  const phrases = requiredTiers(p.profile_tier, p.min_tier).map(({ tier, source }) =>
    t(`rule.verification.${source}`, { tier: words.tier(tier) }),
  );
  sentences.push({
    id: 'requires',
    text: t('rule.requires', {
      tier: tiersPhrase(phrases, words.tier(null), (first, second) =>
        t('rule.verification.and', { first, second }),
      ),
      rating: words.rating(p.min_rating),
    }),
  });
  if (p.vip_level !== null) sentences.push({ id: 'vip', text: t('rule.vipLevel', { level: p.vip_level }) });
  sentences.push({
    id: 'jurisdictions',
    text: t('rule.jurisdictions', { list: words.jurisdictions(p.jurisdictions) }),
  });
  sentences.push({
    id: 'penalty-profile',
    text: info.principal_penalty_allowed ? t('rule.penaltyAllowed') : t('rule.penaltyNotAllowed'),
  });
  if (p.sale_starts_at !== null)
    sentences.push({ id: 'sale-from', text: t('rule.saleFrom', { date: words.time(p.sale_starts_at) }) });
  if (p.sale_ends_at !== null)
    sentences.push({ id: 'sale-until', text: t('rule.saleUntil', { date: words.time(p.sale_ends_at) }) });
  return sentences;
}

export function RuleList({ info }: { info: ProfitInfoData }) {
  const { t } = useTranslation('earn');
  const sentences = useRuleSentences(info);
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} data-testid="earn-rules">
      <Stack gap="sm">
        <Title order={2} fz="lg">
          {t('rule.title')}
        </Title>
        <List spacing={8} size="sm">
          {sentences.map((s) => (
            <List.Item key={s.id} data-testid={`rule-${s.id}`}>
              {s.text}
            </List.Item>
          ))}
        </List>
        {info.product.description ? (
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              {t('rule.description')}
            </Text>
            <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-line' }} data-testid="earn-description">
              {info.product.description}
            </Text>
          </Stack>
        ) : null}
      </Stack>
    </Paper>
  );
}
