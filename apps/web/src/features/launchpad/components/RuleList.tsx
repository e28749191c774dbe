import type { LaunchpadProjectData } from '@bourse/protocol';
import { List, Paper, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { requiredTiers, tiersPhrase } from '../../../shared/verification/tiers.ts';
import { maxAsk } from '../logic.ts';
import { useLaunchpadWords } from './parts.tsx';

type Sentence = { id: string; text: string };

/**
 * Every rule of a project, generated from its data alone in the reader's language: the allocation
 * mode in plain words (pro rata with its cap, redistribution and remainder rule, or first come), the
 * price and lot size, the supply, the limits per customer, the fee, the margin (the whole cost is
 * frozen), the window and the review at close, the soft cap and the refund deadline, the listing,
 * the lock-up and its release, who may subscribe (the jurisdiction profile's verification rule and
 * the project's own), and the published proof.
 */
export function useRuleSentences(p: LaunchpadProjectData): Sentence[] {
  const { t } = useTranslation('launchpad');
  const words = useLaunchpadWords();
  const coin = p.coin;
  const c = (value: string) => words.coins(value, p.lot_size);
  const sentences: Sentence[] = [];
  const add = (id: string, text: string) => sentences.push({ id, text });
  if (p.mode === 'pro_rata') {
    add('mode', t('rule.proRata', { cap: c(p.per_customer_cap), coin }));
    add('remainder', t('rule.remainder', { lot: c(p.lot_size), coin }));
  } else {
    add('mode', t('rule.firstCome', { cap: c(p.per_customer_cap), coin }));
  }
  add('price', t('rule.price', { price: words.usdt(p.price), coin }));
  add('lot', t('rule.lot', { lot: c(p.lot_size), coin }));
  add('supply', t('rule.supply', { supply: c(p.supply), circulation: c(p.circulation), coin }));
  // The most one may ask for: the cap in first come, the supply in pro rata (the cap bounds the allocation).
  add('limits', t('rule.limits', { min: c(p.min_subscription), cap: c(maxAsk(p)), coin }));
  add('margin', t('rule.margin', { ratio: words.percent(p.margin_ratio) }));
  add('fee', t('rule.fee', { rate: words.percent(p.fee_rate) }));
  add('window', t('rule.window', { opens: words.time(p.opens_at), closes: words.time(p.closes_at) }));
  add('review', t('rule.review'));
  add('softCap', t('rule.softCap', { softCap: c(p.soft_cap), coin, count: p.refund_hours }));
  add('listing', t('rule.listing', { date: words.time(p.listing_at) }));
  add(
    'lockup',
    p.lockup_days > 0
      ? t('rule.lockup', { count: p.lockup_days, date: words.time(p.release_at) })
      : t('rule.noLockup'),
  );
  // What subscribing asks, in the server's order: the profile's `launchpad` rule, then the project's tier.
  const phrases = requiredTiers(p.profile_tier, p.eligibility.min_tier).map(({ tier, source }) =>
    t(`rule.verification.${source}`, { tier: words.tier(tier) }),
  );
  add(
    'requires',
    t('rule.requires', {
      tier: tiersPhrase(phrases, words.tier(null), (first, second) =>
        t('rule.verification.and', { first, second }),
      ),
      rating: words.rating(p.eligibility.min_rating),
    }),
  );
  add('jurisdictions', t('rule.jurisdictions', { list: words.jurisdictions(p.eligibility.jurisdictions) }));
  add('proof', t('rule.proof'));
  return sentences;
}

export function RuleList({ project }: { project: LaunchpadProjectData }) {
  const { t } = useTranslation('launchpad');
  const sentences = useRuleSentences(project);
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} data-testid="launchpad-rules">
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
      </Stack>
    </Paper>
  );
}
