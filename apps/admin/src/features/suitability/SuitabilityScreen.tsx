import {
  type AdminSuitabilityData,
  ASSESSED_RATINGS,
  type JurisdictionProfileId,
  PRODUCT_CLASSES,
  RISK_RATINGS,
  SUITABILITY_LIMITS,
  SUITABILITY_QUESTIONS,
} from '@bourse/protocol';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  NativeSelect,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { hasPermission, useStaffMe } from '../../app/session.ts';
import { ErrorNote, Figure, ReasonDialog, useAmountText } from '../../app/ui.tsx';
import { KEYS, publishScoring, saveCustomCaps, useSuitability } from './api.ts';
import {
  type CapsForm,
  capsForm,
  capsFromForm,
  type ScoringForm,
  scoringForm,
  scoringFromForm,
} from './form.ts';

const PROFILES: JurisdictionProfileId[] = ['permissive', 'eu_retail', 'custom'];

/** A small whole-number input that names its range when the value is outside it. */
function WholeInput(props: {
  value: string;
  onChange: (v: string) => void;
  bad: boolean;
  min: number;
  max: number;
  label?: string;
  disabled?: boolean;
  testId: string;
  width?: number;
}) {
  const { t } = useTranslation('suitability');
  return (
    <TextInput
      size="xs"
      label={props.label}
      value={props.value}
      onChange={(e) => props.onChange(e.currentTarget.value)}
      inputMode="numeric"
      disabled={props.disabled}
      error={props.bad ? t('admin.wholeHint', { min: props.min, max: props.max }) : undefined}
      w={props.width}
      data-testid={props.testId}
    />
  );
}

/** The scoring table in force as an editable form; publishing makes a new version (reason required). */
function ScoringTab({
  data,
  canEdit,
  onSaved,
}: {
  data: AdminSuitabilityData;
  canEdit: boolean;
  onSaved: () => void;
}) {
  const { t } = useTranslation('suitability');
  const lang = useLang();
  const current = data.versions[0];
  const [form, setForm] = useState<ScoringForm | null>(null);
  const [confirm, setConfirm] = useState(false);
  useEffect(() => {
    if (current) setForm(scoringForm(current));
  }, [current]);
  const checked = useMemo(() => (form ? scoringFromForm(form) : null), [form]);
  if (!current || !form || !checked) return null;
  const set = (patch: Partial<ScoringForm>) => setForm((f) => (f ? { ...f, ...patch } : f));
  return (
    <Stack data-testid="scoring-tab">
      <Text size="sm" data-testid="scoring-in-force">
        {t('admin.inForce', { version: current.version, date: formatTime(current.created_at, lang) })}
        {' · '}
        {current.created_by ? t('admin.by', { who: current.created_by }) : t('admin.shipped')}
      </Text>
      <Card withBorder>
        <Title order={4} mb="sm">
          {t('admin.thresholds')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <WholeInput
            label={t('admin.balancedFrom')}
            value={form.balanced}
            onChange={(balanced) => set({ balanced })}
            bad={checked.bad.has('balanced')}
            min={1}
            max={SUITABILITY_LIMITS.thresholdMax}
            disabled={!canEdit}
            testId="scoring-balanced"
          />
          <WholeInput
            label={t('admin.aggressiveFrom')}
            value={form.aggressive}
            onChange={(aggressive) => set({ aggressive })}
            bad={checked.bad.has('aggressive')}
            min={Number.parseInt(form.balanced, 10) + 1 || 2}
            max={SUITABILITY_LIMITS.thresholdMax}
            disabled={!canEdit}
            testId="scoring-aggressive"
          />
          <WholeInput
            label={t('admin.coolingOff')}
            value={form.days}
            onChange={(days) => set({ days })}
            bad={checked.bad.has('days')}
            min={0}
            max={SUITABILITY_LIMITS.coolingOffDaysMax}
            disabled={!canEdit}
            testId="scoring-days"
          />
        </SimpleGrid>
      </Card>
      {SUITABILITY_QUESTIONS.map((q, i) => (
        <Card withBorder key={q.id} data-testid={`scoring-question-${q.id}`}>
          <Text fw={600} size="sm" mb="xs">
            {i + 1}. {t(`q.${q.id}.title`)}
          </Text>
          <Table.ScrollContainer minWidth={560}>
            <Table verticalSpacing={4}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('admin.option')}</Table.Th>
                  <Table.Th w={120}>{t('admin.points')}</Table.Th>
                  <Table.Th w={200}>{t('admin.ceiling')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {q.options.map((o) => {
                  const k = `${q.id}.${o}`;
                  return (
                    <Table.Tr key={o}>
                      <Table.Td>
                        <Text size="sm">{t(`q.${q.id}.${o}` as 'q.occupation.other')}</Text>
                      </Table.Td>
                      <Table.Td>
                        <WholeInput
                          value={form.points[k] ?? ''}
                          onChange={(v) => set({ points: { ...form.points, [k]: v } })}
                          bad={checked.bad.has(k)}
                          min={0}
                          max={SUITABILITY_LIMITS.pointsMax}
                          disabled={!canEdit}
                          testId={`points-${k}`}
                          width={90}
                        />
                      </Table.Td>
                      <Table.Td>
                        <NativeSelect
                          size="xs"
                          value={form.ceilings[k] ?? ''}
                          disabled={!canEdit}
                          onChange={(e) =>
                            set({
                              ceilings: {
                                ...form.ceilings,
                                [k]: e.currentTarget.value as ScoringForm['ceilings'][string],
                              },
                            })
                          }
                          data={[
                            { value: '', label: t('admin.noCeiling') },
                            { value: 'conservative', label: t('rating.conservative') },
                            { value: 'balanced', label: t('rating.balanced') },
                          ]}
                          data-testid={`ceiling-${k}`}
                        />
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Card>
      ))}
      {canEdit ? (
        <Group justify="flex-end">
          <Button
            disabled={checked.table === null}
            onClick={() => setConfirm(true)}
            data-testid="scoring-publish"
          >
            {t('admin.publish')}
          </Button>
        </Group>
      ) : null}
      <Card withBorder>
        <Title order={4} mb="sm">
          {t('admin.versions')}
        </Title>
        <Table.ScrollContainer minWidth={560}>
          <Table data-testid="scoring-versions">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('admin.version')}</Table.Th>
                <Table.Th>{t('admin.published')}</Table.Th>
                <Table.Th>{t('admin.author')}</Table.Th>
                <Table.Th>{t('admin.reason')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.versions.map((v) => (
                <Table.Tr key={v.version} data-testid="scoring-version-row">
                  <Table.Td>
                    <Figure>{v.version}</Figure>
                  </Table.Td>
                  <Table.Td>
                    <Figure>{formatTime(v.created_at, lang)}</Figure>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{v.created_by ?? t('admin.shipped')}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{v.reason}</Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Card>
      <ReasonDialog
        opened={confirm}
        title={t('admin.publishTitle', { version: current.version + 1 })}
        text={t('admin.publishText')}
        confirmLabel={t('admin.publish')}
        onClose={() => setConfirm(false)}
        onSubmit={async (reason) => {
          if (!checked.table) return;
          await publishScoring({ ...checked.table, reason: reason.trim() });
          onSaved();
        }}
      />
    </Stack>
  );
}

/** Caps per profile × rating × product class; the custom profile is editable (reason required). */
function CapsTab({
  data,
  canEdit,
  onSaved,
}: {
  data: AdminSuitabilityData;
  canEdit: boolean;
  onSaved: () => void;
}) {
  const { t } = useTranslation('suitability');
  const amount = useAmountText();
  const [profile, setProfile] = useState<JurisdictionProfileId>(data.active_profile);
  const [form, setForm] = useState<CapsForm>(() => capsForm(data.caps.custom));
  const [confirm, setConfirm] = useState(false);
  useEffect(() => setForm(capsForm(data.caps.custom)), [data.caps.custom]);
  const editable = canEdit && profile === 'custom';
  const checked = capsFromForm(form);
  const caps = data.caps[profile];
  return (
    <Stack data-testid="caps-tab" data-profile={profile}>
      <Group>
        <Text size="sm">{t('admin.profile')}</Text>
        <SegmentedControl
          value={profile}
          onChange={(v) => setProfile(v as JurisdictionProfileId)}
          data={PROFILES.map((p) => ({
            value: p,
            label: (
              <span data-testid={`caps-profile-${p}`}>
                {t(`profile.${p}`)}
                {p === data.active_profile ? ` (${t('admin.active')})` : ''}
              </span>
            ),
          }))}
        />
      </Group>
      {profile !== 'custom' ? (
        <Alert color="gray" variant="light">
          <Text size="sm">{t('admin.builtIn')}</Text>
        </Alert>
      ) : null}
      <Table.ScrollContainer minWidth={900}>
        <Table withTableBorder data-testid="caps-editor">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('admin.rating')}</Table.Th>
              {PRODUCT_CLASSES.map((p) => (
                <Table.Th key={p}>{t(`product.${p}`)}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {RISK_RATINGS.map((r) => (
              <Table.Tr key={r}>
                <Table.Td>
                  <Text size="sm" fw={600}>
                    {t(`rating.${r}`)}
                  </Text>
                </Table.Td>
                {PRODUCT_CLASSES.map((p) => {
                  const cell = caps[r]?.[p];
                  const levKey = `${r}.${p}.max_leverage`;
                  const amountKey = `${r}.${p}.max_amount`;
                  if (!editable)
                    return (
                      <Table.Td key={p} data-testid={`cap-${r}-${p}`}>
                        {p === 'contracts' ? <Figure>{`${cell?.max_leverage ?? 0}×`}</Figure> : null}
                        <Text size="sm">{amount(cell?.max_amount, 'USDT')}</Text>
                      </Table.Td>
                    );
                  return (
                    <Table.Td key={p}>
                      <Stack gap={4}>
                        {p === 'contracts' ? (
                          <WholeInput
                            label={t('admin.maxLeverage')}
                            value={form[levKey] ?? ''}
                            onChange={(v) => setForm((f) => ({ ...f, [levKey]: v }))}
                            bad={checked.bad.has(levKey)}
                            min={0}
                            max={SUITABILITY_LIMITS.leverageMax}
                            testId={`cap-input-${levKey}`}
                          />
                        ) : null}
                        <TextInput
                          size="xs"
                          label={t('admin.maxAmount')}
                          value={form[amountKey] ?? ''}
                          onChange={(e) => {
                            const v = e.currentTarget.value;
                            setForm((f) => ({ ...f, [amountKey]: v }));
                          }}
                          inputMode="numeric"
                          error={
                            checked.bad.has(amountKey)
                              ? t('admin.wholeHint', { min: 0, max: SUITABILITY_LIMITS.amountMax })
                              : undefined
                          }
                          data-testid={`cap-input-${amountKey}`}
                        />
                      </Stack>
                    </Table.Td>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {editable ? (
        <Group justify="flex-end">
          <Button disabled={checked.caps === null} onClick={() => setConfirm(true)} data-testid="caps-save">
            {t('admin.saveCaps')}
          </Button>
        </Group>
      ) : null}
      <ReasonDialog
        opened={confirm}
        title={t('admin.capsTitle')}
        text={t('admin.capsText')}
        confirmLabel={t('admin.saveCaps')}
        onClose={() => setConfirm(false)}
        onSubmit={async (reason) => {
          if (!checked.caps) return;
          await saveCustomCaps({ caps: checked.caps, reason: reason.trim() });
          onSaved();
        }}
      />
    </Stack>
  );
}

/**
 * The risk questionnaire's back office: the scoring table (versions; publishing one needs
 * `settings.write` and a reason) and the caps per jurisdiction profile (custom editable).
 */
export default function SuitabilityScreen() {
  const { t } = useTranslation('suitability');
  const me = useStaffMe();
  const client = useQueryClient();
  const suitability = useSuitability();
  const [saved, setSaved] = useState(false);
  const canEdit = hasPermission(me.data, 'settings.write');
  const data = suitability.data;
  const onSaved = () => {
    setSaved(true);
    void client.invalidateQueries({ queryKey: KEYS.suitability });
  };
  return (
    <Stack data-testid="suitability-screen">
      <Title order={2}>{t('admin.title')}</Title>
      <Text size="sm" c="dimmed">
        {t('admin.intro')}
      </Text>
      <ErrorNote error={suitability.error} />
      {saved ? (
        <Alert
          color="green"
          variant="light"
          withCloseButton
          onClose={() => setSaved(false)}
          data-testid="suitability-saved"
        >
          {t('admin.saved')}
        </Alert>
      ) : null}
      {data ? (
        <>
          <Group gap="xs" data-testid="rating-counts">
            <Text size="sm">{t('admin.counts')}:</Text>
            {ASSESSED_RATINGS.map((r) => (
              <Badge key={r} variant="light" data-testid={`count-${r}`}>
                {t(`rating.${r}`)} {data.counts[r]}
              </Badge>
            ))}
          </Group>
          <Tabs defaultValue="scoring" keepMounted={false}>
            <Tabs.List>
              <Tabs.Tab value="scoring" data-testid="tab-scoring">
                {t('admin.tabScoring')}
              </Tabs.Tab>
              <Tabs.Tab value="caps" data-testid="tab-caps">
                {t('admin.tabCaps')}
              </Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="scoring" pt="md">
              <ScoringTab data={data} canEdit={canEdit} onSaved={onSaved} />
            </Tabs.Panel>
            <Tabs.Panel value="caps" pt="md">
              <CapsTab data={data} canEdit={canEdit} onSaved={onSaved} />
            </Tabs.Panel>
          </Tabs>
        </>
      ) : null}
    </Stack>
  );
}
