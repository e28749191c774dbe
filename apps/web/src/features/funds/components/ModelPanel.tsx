import { bpsPercentText } from '@bourse/money';
import type { FundModelData, FundNavPoint } from '@bourse/protocol';
import { Num } from '@bourse/ui';
import { Group, Paper, Progress, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { NavRange } from '../api/getEtfInfo.ts';
import { cut, ratePercent } from '../logic.ts';
import { NavChart } from './NavChart.tsx';

const COLORS = ['orange', 'indigo', 'teal', 'grape', 'cyan'];

/** Target weights as bars: each asset's share and the cash slice. */
function Weights({ model }: { model: FundModelData }) {
  const { t } = useTranslation('funds');
  return (
    <Stack gap={6} data-testid="etf-weights">
      <Text size="sm" fw={600}>
        {t('buy.weights')}
      </Text>
      <Progress.Root size={14}>
        {model.weights.map((w, i) => (
          <Progress.Section
            key={w.asset}
            value={w.weight_bps / 100}
            color={w.symbol ? COLORS[i % COLORS.length] : 'gray'}
          />
        ))}
      </Progress.Root>
      <Group gap="md">
        {model.weights.map((w, i) => (
          <Group key={w.asset} gap={6} wrap="nowrap">
            <Progress
              value={100}
              w={10}
              size={10}
              color={w.symbol ? COLORS[i % COLORS.length] : 'gray'}
              aria-hidden
            />
            <Text size="sm" translate="no">
              {w.symbol ? w.asset : t('buy.cash')} {bpsPercentText(w.weight_bps)}%
            </Text>
          </Group>
        ))}
      </Group>
    </Stack>
  );
}

/** The rules that apply, each generated from the model's data. */
export function ModelRules({ model }: { model: FundModelData }) {
  const { t } = useTranslation('funds');
  const { t: tc } = useTranslation('common');
  const rates = [...new Set(Object.values(model.fee_rates))];
  return (
    <Stack gap={2} data-testid="etf-rules">
      <Text size="sm" fw={600}>
        {t('buy.rules')}
      </Text>
      <Text size="sm">{t('buy.drift', { points: bpsPercentText(model.drift_bps) })}</Text>
      <Text size="sm">{t('buy.limits', { min: model.min_amount, max: model.max_amount })}</Text>
      {/* The jurisdiction profile's verification rule, asked first on buying (then the rating). */}
      <Text size="sm" data-testid="etf-rule-verification" data-tier={model.profile_tier}>
        {model.profile_tier === 'none'
          ? t('buy.verificationNone')
          : t('buy.verification', { tier: tc(`label.tier.${model.profile_tier}` as never) as string })}
      </Text>
      <Text size="sm">
        {t('buy.rating', { rating: tc(`label.rating.${model.min_rating}` as never) as string })}
      </Text>
      {rates.map((r) => (
        <Text size="sm" key={r}>
          {t('buy.fees', { rate: ratePercent(r) })}
        </Text>
      ))}
    </Stack>
  );
}

/** One model: its description, weights, NAV now and history, rules, and the no-promise line. */
export function ModelPanel({
  model,
  history,
  range,
  onRange,
}: {
  model: FundModelData;
  history: readonly FundNavPoint[];
  range: NavRange;
  onRange: (r: NavRange) => void;
}) {
  const { t } = useTranslation('funds');
  // The hourly history on recorded prices, then the value now (the same figure as above).
  const last = history.at(-1);
  const points =
    last && last.at >= model.nav_at ? history : [...history, { at: model.nav_at, nav: model.nav }];
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'lg' }} data-testid="etf-model">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="wrap">
          <Title order={2} fz={{ base: 18, sm: 22 }}>
            {model.name}
          </Title>
          <Stack gap={0} align="flex-end">
            <Text size="xs" c="dimmed">
              {t('buy.nav')}
            </Text>
            <Num value={cut(model.nav, 4)} fw={700} fz="xl" data-testid="etf-nav" />
          </Stack>
        </Group>
        <Text size="sm">{model.description}</Text>
        <Weights model={model} />
        <Stack gap={4}>
          <Group justify="space-between" wrap="wrap">
            <Text size="sm" fw={600}>
              {t('buy.chart')}
            </Text>
            <SegmentedControl
              size="xs"
              value={range}
              onChange={(v) => onRange(v as NavRange)}
              data={(['day', 'week', 'month', 'all'] as const).map((r) => ({
                value: r,
                label: t(`buy.range.${r}`),
              }))}
            />
          </Group>
          {points.length > 1 ? (
            <NavChart points={points} />
          ) : (
            <Text size="sm" c="dimmed" data-testid="etf-no-history">
              {t('buy.noHistory')}
            </Text>
          )}
          <Text size="xs" c="dimmed">
            {t('buy.navHint')}
          </Text>
        </Stack>
        <ModelRules model={model} />
        <Text size="xs" c="dimmed" fs="italic" data-testid="etf-no-return">
          {t('noReturn')}
        </Text>
      </Stack>
    </Paper>
  );
}
