import { formatExact } from '@bourse/money';
import { LANGS, LAUNCHPAD_LIMITS, type Lang, LOCALE_OF } from '@bourse/protocol';
import { Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatTime, i18n } from '../../app/i18n.ts';
import { coinScaleOf, localTimeMs, type ProjectForm, releaseAtMs, subscriptionCost } from './projectForm.ts';

const UNKNOWN = '…';

/** The figures of the preview in one language's locale ('…' for what the form does not hold yet). */
function figuresIn(form: ProjectForm, lang: Lang) {
  const locale = LOCALE_OF[lang];
  const num = (value: string | null | undefined) =>
    value && value.trim() !== '' ? formatExact(value.trim(), { locale }) : UNKNOWN;
  const time = (text: string) => {
    const ms = localTimeMs(text);
    return ms === null ? UNKNOWN : formatTime(ms, lang);
  };
  const cost = (quantity: string) =>
    subscriptionCost({
      quantity,
      coinScale: coinScaleOf(form.coin_scale),
      price: form.price,
      feeRate: form.fee_rate,
      marginRatio: LAUNCHPAD_LIMITS.marginRatio,
    });
  const sample = cost(form.min_subscription);
  const listing = localTimeMs(form.listing_at);
  const days = Number.parseInt(form.lockup_days, 10);
  const release = listing !== null && Number.isInteger(days) && days >= 0 ? releaseAtMs(listing, days) : null;
  return {
    coin: form.coin.trim() || UNKNOWN,
    quantity: num(form.min_subscription),
    price: num(form.price),
    feeRate: num(form.fee_rate),
    cost: num(sample?.cost),
    fee: num(sample?.fee),
    frozen: num(sample?.frozen),
    min: num(form.min_subscription),
    cap: num(form.per_customer_cap),
    capFrozen: num(cost(form.per_customer_cap)?.frozen),
    supply: num(form.supply),
    maxFrozen: num(cost(form.supply)?.frozen),
    lot: num(form.lot_size),
    softCap: num(form.soft_cap),
    opens: time(form.opens_at),
    closes: time(form.closes_at),
    listing: time(form.listing_at),
    release: release === null ? UNKNOWN : formatTime(release, lang),
    hours: form.refund_hours.trim() || UNKNOWN,
  };
}

/**
 * What a customer will read on the project page, in each language: what subscribing the least
 * quantity freezes (cost + fee, the whole cost), the window and caps, the allocation rule, the
 * listing and release dates, and the refund promise.
 */
export function ProjectPreview({ form }: { form: ProjectForm }) {
  const { t } = useTranslation('adminLaunchpad');
  return (
    <Paper withBorder p="sm" radius="md" data-testid="launchpad-form-preview">
      <Stack gap="sm">
        <Text size="sm" fw={600}>
          {t('form.previewTitle')}
        </Text>
        {LANGS.map((lang) => {
          const fixed = i18n.getFixedT(lang, 'adminLaunchpad');
          const f = figuresIn(form, lang);
          return (
            <Stack
              key={lang}
              gap={2}
              data-testid={`launchpad-preview-${lang}`}
              lang={lang === 'en' ? 'en' : 'zh'}
            >
              <Text size="xs" c="dimmed">
                {t(`lang.${lang}`)} · {form.names[lang] || UNKNOWN}
              </Text>
              <Text size="sm" data-testid={`launchpad-preview-cost-${lang}`}>
                {fixed('preview.cost', f)}
              </Text>
              <Text size="sm">
                {fixed(form.mode === 'pro_rata' ? 'preview.rulesProRata' : 'preview.rules', f)}{' '}
                {fixed(`modeRule.${form.mode}`)}
              </Text>
              <Text size="sm">{fixed('preview.listing', f)}</Text>
              <Text size="sm">{fixed('preview.refund', f)}</Text>
            </Stack>
          );
        })}
      </Stack>
    </Paper>
  );
}
