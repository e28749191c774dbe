import type { AdminSigninSettingsData, SigninState } from '@bourse/protocol';
import { LANGS, SIGNIN_LIMITS } from '@bourse/protocol';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { DoneNote, ErrorNote, ReasonDialog, useAmountText } from '../../app/ui.tsx';
import { type SettingsInput, useSaveSettings, useSigninSettings } from './api.ts';
import { formOf, formProblem, type ProgrammeForm, weekTotal } from './programmeForm.ts';

const STATE_COLOR: Record<SigninState, string> = {
  on: 'teal',
  off: 'gray',
  budget_empty: 'orange',
  profile_forbids: 'red',
};

export function StateBadge({ state }: { state: SigninState }) {
  const { t } = useTranslation('adminSignin');
  return (
    <Badge color={STATE_COLOR[state]} variant="light" data-testid="signin-admin-state" data-state={state}>
      {t(`state.${state}`)}
    </Badge>
  );
}

const LANG_LABEL = { en: 'conditionEn', zh: 'conditionZh', ft: 'conditionFt' } as const;

function Fields({
  form,
  currency,
  onChange,
}: {
  form: ProgrammeForm;
  currency: string;
  onChange: (f: ProgrammeForm) => void;
}) {
  const { t } = useTranslation('adminSignin');
  return (
    <Stack>
      <Switch
        label={t('settings.enabled')}
        checked={form.enabled}
        onChange={(e) => onChange({ ...form, enabled: e.currentTarget.checked })}
        data-testid="signin-enabled"
      />
      <TextInput
        label={t('settings.timeZone')}
        value={form.timeZone}
        maxLength={64}
        onChange={(e) => onChange({ ...form, timeZone: e.currentTarget.value })}
        data-testid="signin-timezone"
      />
      <Text size="sm" fw={500}>
        {t('settings.amounts', { currency })}
      </Text>
      <SimpleGrid cols={{ base: 2, sm: 4, lg: 7 }} spacing="xs">
        {form.amounts.map((a, i) => (
          <TextInput
            // biome-ignore lint/suspicious/noArrayIndexKey: the seven days are positions
            key={i}
            label={t('settings.day', { n: i + 1 })}
            value={a}
            inputMode="decimal"
            maxLength={40}
            onChange={(e) => {
              const amounts = [...form.amounts];
              amounts[i] = e.currentTarget.value;
              onChange({ ...form, amounts });
            }}
            data-testid={`signin-amount-${i + 1}`}
          />
        ))}
      </SimpleGrid>
      <div>
        <Text size="sm" fw={500} mb={4}>
          {t('settings.verification')}
        </Text>
        <SegmentedControl
          value={form.verification}
          onChange={(v) => onChange({ ...form, verification: v === 'primary' ? 'primary' : 'none' })}
          data={[
            { value: 'none', label: t('settings.verificationNone') },
            { value: 'primary', label: t('settings.verificationPrimary') },
          ]}
          data-testid="signin-verification"
        />
      </div>
      <Text size="sm" fw={500}>
        {t('settings.condition')}
      </Text>
      {LANGS.map((lang) => (
        <Textarea
          key={lang}
          label={t(`settings.${LANG_LABEL[lang]}`)}
          value={form.condition[lang]}
          maxLength={SIGNIN_LIMITS.conditionMax}
          autosize
          minRows={2}
          onChange={(e) =>
            onChange({ ...form, condition: { ...form.condition, [lang]: e.currentTarget.value } })
          }
          data-testid={`signin-condition-${lang}`}
        />
      ))}
    </Stack>
  );
}

/** Before → after as customers will read it: the week's total, the zone sentence, the state. */
function Preview({ saved, form }: { saved: AdminSigninSettingsData; form: ProgrammeForm }) {
  const { t } = useTranslation('adminSignin');
  const amountText = useAmountText();
  const line = (f: ProgrammeForm) => (
    <Stack gap={2}>
      <Text size="sm">
        {t('preview.week', { total: amountText(weekTotal(f.amounts)), currency: saved.currency })}
      </Text>
      <Text size="sm" c="dimmed">
        {t('preview.sentence', { zone: f.timeZone.trim() })}
      </Text>
    </Stack>
  );
  return (
    <Card withBorder data-testid="signin-preview">
      <Stack gap="xs">
        <Title order={5}>{t('preview.title')}</Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Stack gap={2} data-testid="signin-preview-before">
            <Text size="xs" fw={600}>
              {t('preview.before')}
            </Text>
            {line(formOf(saved))}
          </Stack>
          <Stack gap={2} data-testid="signin-preview-after">
            <Text size="xs" fw={600}>
              {t('preview.after')}
            </Text>
            {line(form)}
          </Stack>
        </SimpleGrid>
      </Stack>
    </Card>
  );
}

function Header({ saved }: { saved: AdminSigninSettingsData }) {
  const { t } = useTranslation('adminSignin');
  const lang = useLang();
  return (
    <Stack gap="xs">
      <Title order={2}>{t('settings.title')}</Title>
      <Text size="sm" c="dimmed">
        {t('settings.intro')}
      </Text>
      <Group gap="xs">
        <Text size="sm">{t('settings.stateNow')}:</Text>
        <StateBadge state={saved.state} />
      </Group>
      {!saved.promo_incentives ? (
        <Alert color="red" variant="light" data-testid="signin-promo-forbidden">
          {t('settings.promoForbidden')}
        </Alert>
      ) : null}
      <Text size="xs" c="dimmed" data-testid="signin-updated">
        {saved.updated_at
          ? t('settings.updated', { at: formatTime(saved.updated_at, lang), by: saved.updated_by ?? '—' })
          : t('settings.never')}
      </Text>
    </Stack>
  );
}

/**
 * The sign-in programme (`/admin/signin`, `content.write`): on/off, the time zone, the seven
 * amounts, the verification needed and the condition in three languages, with a before → after
 * preview, saved with a reason (audited).
 */
export default function ProgrammeScreen() {
  const { t } = useTranslation('adminSignin');
  const settings = useSigninSettings();
  const save = useSaveSettings();
  const [form, setForm] = useState<ProgrammeForm | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState('');
  const saved = settings.data;
  useEffect(() => {
    if (saved && form === null) setForm(formOf(saved));
  }, [saved, form]);
  if (!saved || !form) return <ErrorNote error={settings.error} />;
  const problem = formProblem(form);
  const input = (reason: string): SettingsInput => ({
    enabled: form.enabled,
    time_zone: form.timeZone.trim(),
    amounts: form.amounts.map((a) => a.trim()),
    verification: form.verification,
    condition: { en: form.condition.en.trim(), zh: form.condition.zh.trim(), ft: form.condition.ft.trim() },
    reason: reason.trim(),
  });
  return (
    <Stack gap="md" data-testid="signin-programme">
      <Header saved={saved} />
      <DoneNote onClose={() => setDone('')} data-testid="signin-saved">
        {done}
      </DoneNote>
      <Card withBorder>
        <Fields form={form} currency={saved.currency} onChange={setForm} />
      </Card>
      <Preview saved={saved} form={form} />
      {problem ? (
        <Text size="sm" c="orange" data-testid="signin-form-problem">
          {problem === 'time_zone'
            ? t('settings.timeZone')
            : problem === 'condition'
              ? t('settings.condition')
              : t('settings.day', { n: Number(problem.replace(/\D/g, '')) + 1 })}
        </Text>
      ) : null}
      <Group justify="flex-end">
        <Button disabled={problem !== null} onClick={() => setConfirming(true)} data-testid="signin-save">
          {t('settings.save')}
        </Button>
      </Group>
      <ReasonDialog
        opened={confirming}
        title={t('settings.save')}
        confirmLabel={t('settings.save')}
        size="lg"
        onClose={() => setConfirming(false)}
        onSubmit={async (reason) => {
          const next = await save.mutateAsync(input(reason));
          setForm(formOf(next));
          setDone(t('settings.saved'));
        }}
      >
        <Preview saved={saved} form={form} />
      </ReasonDialog>
    </Stack>
  );
}
