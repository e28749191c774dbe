import { DEFAULT_CRYPTO_SCALE, isKnownAsset, scaleOf } from '@bourse/money';
import {
  type AdminFundingAccountData,
  EARN_LIMITS,
  EARN_REDEEM_RULES,
  JURISDICTION_PROFILES,
  LANGS,
  type Lang,
  RISK_RATINGS,
  VERIFICATION_TIERS,
} from '@bourse/protocol';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Modal,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { i18n } from '../../app/i18n.ts';
import { ErrorNote } from '../../app/ui.tsx';
import { useCreateProduct } from './api.ts';
import { dailyRate, emptyProductForm, type ProductForm, productBody, termReward } from './productForm.ts';

type Setter = <K extends keyof ProductForm>(key: K, value: ProductForm[K]) => void;

/** The customer's rule sentence of the product being created, in each of the three languages. */
function RulePreview({ form, funding }: { form: ProductForm; funding: AdminFundingAccountData | undefined }) {
  const { t } = useTranslation('adminEarn');
  const currency = funding?.currency ?? '…';
  const scale = funding && isKnownAsset(funding.currency) ? scaleOf(funding.currency) : DEFAULT_CRYPTO_SCALE;
  const amount = form.min_amount.trim() || '1000';
  const total = termReward(amount, form.annual_rate, form.term_days, scale) ?? '…';
  return (
    <Paper withBorder p="sm" radius="md" data-testid="earn-product-preview">
      <Stack gap={6}>
        <Text size="sm" fw={600}>
          {t('form.previewTitle')}
        </Text>
        {LANGS.map((lang) => {
          const fixed = i18n.getFixedT(lang, 'adminEarn');
          return (
            <Text
              key={lang}
              size="sm"
              data-testid={`earn-preview-${lang}`}
              lang={lang === 'en' ? 'en' : 'zh'}
            >
              <Text span size="xs" c="dimmed">
                {t(`lang.${lang}`)}:{' '}
              </Text>
              {fixed('form.previewSentence', {
                name: form.names[lang] || '…',
                currency,
                days: form.term_days || '…',
                rate: form.annual_rate || '…',
                daily: dailyRate(form.annual_rate) ?? '…',
                funding: funding?.name ?? '…',
                amount,
                total,
                rule: fixed(`rule.${form.redeem_rule}`),
              })}
            </Text>
          );
        })}
      </Stack>
    </Paper>
  );
}

/** Names and descriptions, one pair per language. */
function TextsFields({ form, set, bad }: { form: ProductForm; set: Setter; bad: Set<string> }) {
  const { t } = useTranslation('adminEarn');
  return (
    <SimpleGrid cols={{ base: 1, md: 3 }}>
      {LANGS.map((lang: Lang) => (
        <Stack key={lang} gap="xs">
          <TextInput
            label={`${t('form.names')} · ${t(`lang.${lang}`)}`}
            value={form.names[lang]}
            maxLength={EARN_LIMITS.nameMax}
            error={bad.has(`names.${lang}`)}
            onChange={(e) => set('names', { ...form.names, [lang]: e.currentTarget.value })}
            data-testid={`earn-form-name-${lang}`}
          />
          <Textarea
            label={`${t('form.descriptions')} · ${t(`lang.${lang}`)}`}
            value={form.descriptions[lang]}
            maxLength={EARN_LIMITS.textMax}
            autosize
            minRows={2}
            error={bad.has(`descriptions.${lang}`)}
            onChange={(e) => set('descriptions', { ...form.descriptions, [lang]: e.currentTarget.value })}
            data-testid={`earn-form-description-${lang}`}
          />
        </Stack>
      ))}
    </SimpleGrid>
  );
}

/** Money and time: funding account, term, rate, limits, capacity, sale window. */
function FiguresFields({
  form,
  set,
  bad,
  funding,
}: {
  form: ProductForm;
  set: Setter;
  bad: Set<string>;
  funding: AdminFundingAccountData[];
}) {
  const { t } = useTranslation('adminEarn');
  const text = (key: keyof ProductForm, label: string, testId: string, extra: object = {}) => (
    <TextInput
      label={label}
      value={form[key] as string}
      error={bad.has(key)}
      onChange={(e) => set(key, e.currentTarget.value as never)}
      data-testid={testId}
      {...extra}
    />
  );
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
      <Select
        label={t('form.funding')}
        data={funding.map((f) => ({ value: f.funding_id, label: `${f.name} (${f.currency})` }))}
        value={form.funding_id || null}
        onChange={(v) => set('funding_id', v ?? '')}
        error={bad.has('funding_id')}
        data-testid="earn-form-funding"
      />
      {text('term_days', t('form.termDays'), 'earn-form-term', { inputMode: 'numeric' })}
      {text('annual_rate', t('form.annualRate'), 'earn-form-rate', {
        inputMode: 'decimal',
        description: t('form.annualRateHint', {
          max: EARN_LIMITS.annualRateMax,
          scale: EARN_LIMITS.rateScale,
          daily: dailyRate(form.annual_rate) ?? '—',
        }),
      })}
      {text('redeem_delay_days', t('form.delay'), 'earn-form-delay', { inputMode: 'numeric' })}
      {text('min_amount', t('form.minAmount'), 'earn-form-min', { inputMode: 'decimal' })}
      {text('max_amount', t('form.maxAmount'), 'earn-form-max', { inputMode: 'decimal' })}
      {text('capacity', t('form.capacity'), 'earn-form-capacity', { inputMode: 'decimal' })}
      <span />
      {text('sale_starts_at', t('form.saleStarts'), 'earn-form-starts', { type: 'datetime-local' })}
      {text('sale_ends_at', t('form.saleEnds'), 'earn-form-ends', { type: 'datetime-local' })}
    </SimpleGrid>
  );
}

/** Who may buy and how it ends early: rule, penalty, tier, rating, VIP level, jurisdictions. */
function RulesFields({ form, set, bad }: { form: ProductForm; set: Setter; bad: Set<string> }) {
  const { t } = useTranslation('adminEarn');
  const principal = form.redeem_rule === 'principal_percent' || form.redeem_rule === 'principal_daily';
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
      <Select
        label={t('form.redeemRule')}
        description={t('form.redeemRuleHint')}
        data={EARN_REDEEM_RULES.map((r) => ({ value: r, label: t(`rule.${r}`) }))}
        value={form.redeem_rule}
        allowDeselect={false}
        onChange={(v) => v && set('redeem_rule', v as ProductForm['redeem_rule'])}
        data-testid="earn-form-rule"
      />
      <TextInput
        label={t('form.penaltyRate')}
        value={form.penalty_rate}
        disabled={!principal}
        error={bad.has('penalty_rate')}
        onChange={(e) => set('penalty_rate', e.currentTarget.value)}
        data-testid="earn-form-penalty"
      />
      <Select
        label={t('form.minTier')}
        data={['none', ...VERIFICATION_TIERS].map((v) => ({ value: v, label: t(`tier.${v as 'none'}`) }))}
        value={form.min_tier || 'none'}
        allowDeselect={false}
        onChange={(v) => set('min_tier', !v || v === 'none' ? '' : (v as ProductForm['min_tier']))}
        data-testid="earn-form-tier"
      />
      <Select
        label={t('form.minRating')}
        data={RISK_RATINGS.map((r) => ({ value: r, label: t(`rating.${r}`) }))}
        value={form.min_rating}
        allowDeselect={false}
        onChange={(v) => v && set('min_rating', v as ProductForm['min_rating'])}
        data-testid="earn-form-rating"
      />
      {form.kind === 'vip' ? (
        <TextInput
          label={t('form.vipLevel')}
          value={form.vip_level}
          error={bad.has('vip_level')}
          onChange={(e) => set('vip_level', e.currentTarget.value)}
          data-testid="earn-form-vip-level"
        />
      ) : null}
      <Checkbox.Group
        label={t('form.jurisdictions')}
        value={form.jurisdictions}
        onChange={(v) => set('jurisdictions', v as ProductForm['jurisdictions'])}
        error={bad.has('jurisdictions')}
      >
        <Group gap="sm" mt={6}>
          {JURISDICTION_PROFILES.map((j) => (
            <Checkbox
              key={j}
              value={j}
              label={t(`jurisdiction.${j}`)}
              data-testid={`earn-form-jurisdiction-${j}`}
            />
          ))}
        </Group>
      </Checkbox.Group>
    </SimpleGrid>
  );
}

/** The create form: every field of the product body, the preview in three languages, a reason. */
export function ProductFormModal({
  opened,
  onClose,
  funding,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  funding: AdminFundingAccountData[];
  onCreated: (id: string) => void;
}) {
  const { t } = useTranslation('adminEarn');
  const create = useCreateProduct();
  const [form, setForm] = useState<ProductForm>(emptyProductForm);
  const [bad, setBad] = useState<Set<string>>(new Set());
  const set: Setter = (key, value) => setForm((f) => ({ ...f, [key]: value }));
  const chosen = funding.find((f) => f.funding_id === form.funding_id);
  const submit = () => {
    const { body, bad: problems } = productBody(form);
    setBad(problems);
    if (!body) return;
    create.mutate(body, {
      onSuccess: (product) => {
        setForm(emptyProductForm());
        onCreated(product.product_id);
      },
    });
  };
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('form.title')}
      size="90rem"
      centered
      data-testid="earn-product-form"
    >
      <Stack>
        <Text size="sm" c="dimmed">
          {t('form.intro')}
        </Text>
        <Text size="sm" fw={500}>
          {t('form.kind')}
        </Text>
        <SegmentedControl
          value={form.kind}
          onChange={(v) => set('kind', v as ProductForm['kind'])}
          data={[
            { value: 'custody', label: t('kind.custody') },
            { value: 'vip', label: t('kind.vip') },
          ]}
          style={{ alignSelf: 'flex-start' }}
          data-testid="earn-form-kind"
        />
        {funding.length === 0 ? <Alert color="yellow">{t('form.fundingNone')}</Alert> : null}
        <TextsFields form={form} set={set} bad={bad} />
        <Title order={5}>
          {t('form.currency')}: {chosen?.currency ?? '—'}
        </Title>
        <FiguresFields form={form} set={set} bad={bad} funding={funding} />
        <RulesFields form={form} set={set} bad={bad} />
        <RulePreview form={form} funding={chosen} />
        <Textarea
          label={t('form.reason')}
          value={form.reason}
          onChange={(e) => set('reason', e.currentTarget.value)}
          error={bad.has('reason')}
          maxLength={EARN_LIMITS.reasonMax}
          autosize
          minRows={2}
          data-testid="earn-form-reason"
        />
        {bad.size > 0 ? (
          <Alert color="orange" variant="light" data-testid="earn-form-bad" data-fields={[...bad].join(' ')}>
            {t('form.bad')}
          </Alert>
        ) : null}
        <ErrorNote error={create.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button loading={create.isPending} onClick={submit} data-testid="earn-form-submit">
            {t('form.create')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
