import {
  JURISDICTION_PROFILES,
  LANGS,
  LAUNCHPAD_LIMITS,
  LAUNCHPAD_MODES,
  type LaunchpadMode,
  RISK_RATINGS,
  VERIFICATION_TIERS,
} from '@bourse/protocol';
import {
  Checkbox,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  type TextInputProps,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import {
  localTimeMs,
  PERCENT_SCALE,
  type ProjectForm,
  releaseAtMs,
  TEXT_FIELDS,
  type TextField,
} from './projectForm.ts';

export type Setter = <K extends keyof ProjectForm>(key: K, value: ProjectForm[K]) => void;
export type FieldsProps = { form: ProjectForm; set: Setter; bad: Set<string> };

type TextKey = {
  [K in keyof ProjectForm]: ProjectForm[K] extends string ? K : never;
}[keyof ProjectForm];

/** One text input bound to a string field of the form, marked when the field is bad. */
function Field({
  name,
  form,
  set,
  bad,
  ...rest
}: FieldsProps & { name: TextKey } & Omit<TextInputProps, 'name' | 'form'>) {
  return (
    <TextInput
      value={form[name]}
      error={bad.has(name)}
      onChange={(e) => set(name, e.currentTarget.value)}
      data-testid={`launchpad-form-${name}`}
      {...rest}
    />
  );
}

/** The coin, who issues it, where its white paper is and how it is allocated. */
export function CoinFields(props: FieldsProps) {
  const { t } = useTranslation('adminLaunchpad');
  const { form, set } = props;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
      <TextInput
        label={t('form.coin')}
        description={t('form.coinHint')}
        value={form.coin}
        maxLength={10}
        error={props.bad.has('coin')}
        onChange={(e) => set('coin', e.currentTarget.value.toUpperCase())}
        data-testid="launchpad-form-coin"
      />
      <Field
        {...props}
        name="coin_scale"
        label={t('form.coinScale')}
        description={t('form.coinScaleHint', { max: LAUNCHPAD_LIMITS.coinScaleMax })}
        inputMode="numeric"
      />
      <Field {...props} name="issuer" label={t('form.issuer')} maxLength={LAUNCHPAD_LIMITS.nameMax} />
      <Field
        {...props}
        name="whitepaper_url"
        label={t('form.whitepaper')}
        description={t('form.whitepaperHint')}
        maxLength={LAUNCHPAD_LIMITS.urlMax}
      />
      <Select
        label={t('form.mode')}
        description={t(`modeRule.${form.mode}`)}
        data={LAUNCHPAD_MODES.map((m) => ({ value: m, label: t(`mode.${m}`) }))}
        value={form.mode}
        allowDeselect={false}
        onChange={(v) => v && set('mode', v as LaunchpadMode)}
        data-testid="launchpad-form-mode"
        style={{ gridColumn: 'span 2' }}
      />
    </SimpleGrid>
  );
}

const TEXT_LABEL: Record<TextField, 'form.names' | 'form.descriptions' | 'form.riskWarnings'> = {
  names: 'form.names',
  descriptions: 'form.descriptions',
  risk_warnings: 'form.riskWarnings',
};

/** Name, description and risk warning, one set per language. */
export function TextsFields({ form, set, bad }: FieldsProps) {
  const { t } = useTranslation('adminLaunchpad');
  return (
    <SimpleGrid cols={{ base: 1, md: 3 }}>
      {LANGS.map((lang) => (
        <Stack key={lang} gap="xs">
          {TEXT_FIELDS.map((field) => {
            const common = {
              label: `${t(TEXT_LABEL[field])} · ${t(`lang.${lang}`)}`,
              value: form[field][lang],
              error: bad.has(`${field}.${lang}`),
              onChange: (e: { currentTarget: { value: string } }) =>
                set(field, { ...form[field], [lang]: e.currentTarget.value }),
              'data-testid': `launchpad-form-${field}-${lang}`,
            };
            return field === 'names' ? (
              <TextInput key={field} maxLength={LAUNCHPAD_LIMITS.nameMax} {...common} />
            ) : (
              <Textarea key={field} maxLength={LAUNCHPAD_LIMITS.textMax} autosize minRows={2} {...common} />
            );
          })}
        </Stack>
      ))}
    </SimpleGrid>
  );
}

/** Price, lot, circulation, supply, caps, margin (fixed) and fee. */
export function FiguresFields(props: FieldsProps) {
  const { t } = useTranslation('adminLaunchpad');
  const coin = props.form.coin || t('form.coinPlaceholder');
  const dec = { inputMode: 'decimal' as const };
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
      <Field {...props} {...dec} name="price" label={t('form.price', { coin })} />
      <Field
        {...props}
        {...dec}
        name="lot_size"
        label={t('form.lotSize', { coin })}
        description={t('form.lotSizeHint')}
      />
      <Field {...props} {...dec} name="circulation" label={t('form.circulation', { coin })} />
      <Field {...props} {...dec} name="supply" label={t('form.supply', { coin })} />
      <Field
        {...props}
        {...dec}
        name="soft_cap"
        label={t('form.softCap', { coin })}
        description={t('form.softCapHint')}
      />
      <Field {...props} {...dec} name="per_customer_cap" label={t('form.perCustomerCap', { coin })} />
      <Field {...props} {...dec} name="min_subscription" label={t('form.minSubscription', { coin })} />
      <Field
        {...props}
        {...dec}
        name="fee_rate"
        label={t('form.feeRate')}
        description={t('form.feeRateHint', { max: LAUNCHPAD_LIMITS.feeRateMax, scale: PERCENT_SCALE })}
      />
      <TextInput
        label={t('form.marginRatio')}
        description={t('form.marginRatioHint')}
        value={LAUNCHPAD_LIMITS.marginRatio}
        readOnly
        variant="filled"
        data-testid="launchpad-form-margin_ratio"
        style={{ gridColumn: 'span 2' }}
      />
    </SimpleGrid>
  );
}

/** The subscription window, the listing, the lock-up (with the release date it gives) and the refund deadline. */
export function WindowFields(props: FieldsProps) {
  const { t } = useTranslation('adminLaunchpad');
  const lang = useLang();
  const listing = localTimeMs(props.form.listing_at);
  const days = Number.parseInt(props.form.lockup_days, 10);
  const release =
    listing !== null && !props.bad.has('lockup_days') && days >= 0 ? releaseAtMs(listing, days) : null;
  const { refundHoursMin: min, refundHoursMax: max } = LAUNCHPAD_LIMITS;
  return (
    <Stack gap="xs">
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 5 }}>
        <Field {...props} name="opens_at" label={t('form.opens')} type="datetime-local" />
        <Field {...props} name="closes_at" label={t('form.closes')} type="datetime-local" />
        <Field {...props} name="listing_at" label={t('form.listing')} type="datetime-local" />
        <Field
          {...props}
          name="lockup_days"
          label={t('form.lockupDays', { max: LAUNCHPAD_LIMITS.lockupDaysMax })}
          inputMode="numeric"
        />
        <Field
          {...props}
          name="refund_hours"
          label={t('form.refundHours', { min, max })}
          inputMode="numeric"
        />
      </SimpleGrid>
      <Text size="sm" data-testid="launchpad-form-release">
        {release !== null && Number.isFinite(days)
          ? t('form.release', { date: formatTime(release, lang) })
          : t('form.releaseUnknown')}
      </Text>
    </Stack>
  );
}

/** Who may subscribe: verification tier, risk rating, jurisdiction profiles. */
export function EligibilityFields({ form, set, bad }: FieldsProps) {
  const { t } = useTranslation('adminLaunchpad');
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }}>
      <Select
        label={t('form.minTier')}
        data={['none', ...VERIFICATION_TIERS].map((v) => ({ value: v, label: t(`tier.${v as 'none'}`) }))}
        value={form.min_tier || 'none'}
        allowDeselect={false}
        onChange={(v) => set('min_tier', !v || v === 'none' ? '' : (v as ProjectForm['min_tier']))}
        data-testid="launchpad-form-tier"
      />
      <Select
        label={t('form.minRating')}
        data={RISK_RATINGS.map((r) => ({ value: r, label: t(`rating.${r}`) }))}
        value={form.min_rating}
        allowDeselect={false}
        onChange={(v) => v && set('min_rating', v as ProjectForm['min_rating'])}
        data-testid="launchpad-form-rating"
      />
      <Checkbox.Group
        label={t('form.jurisdictions')}
        value={form.jurisdictions}
        onChange={(v) => set('jurisdictions', v as ProjectForm['jurisdictions'])}
        error={bad.has('jurisdictions')}
      >
        <Group gap="sm" mt={6}>
          {JURISDICTION_PROFILES.map((j) => (
            <Checkbox
              key={j}
              value={j}
              label={t(`jurisdiction.${j}`)}
              data-testid={`launchpad-form-jurisdiction-${j}`}
            />
          ))}
        </Group>
      </Checkbox.Group>
    </SimpleGrid>
  );
}
