import {
  type AdminVerificationRulesData,
  REQUIRED_TIERS,
  type RequiredTier,
  VERIFICATION_LIMITS,
  type VerificationFeature,
} from '@bourse/protocol';
import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api.ts';
import { hasPermission, useStaffMe } from '../../app/session.ts';
import { ErrorNote, ReasonDialog } from '../../app/ui.tsx';
import { ReasonFooter, SavedNote, useReasonForm } from '../derivatives/shared.tsx';

type Profile = AdminVerificationRulesData['profiles'][number];

const RULES_KEY = ['verification/rules'] as const;

/** The custom profile's editor: the tier each feature needs and the retention, saved with a reason. */
function EditCustom({
  profile,
  onClose,
  onSaved,
}: {
  profile: Profile;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation(['adminKyc', 'verification']);
  const form = useReasonForm();
  const [tiers, setTiers] = useState<Record<string, RequiredTier>>(() =>
    Object.fromEntries(profile.features.map((f) => [f.feature, f.tier])),
  );
  const [retention, setRetention] = useState<number | string>(profile.document_retention_days);
  const { retentionDaysMin: min, retentionDaysMax: max } = VERIFICATION_LIMITS;
  const retentionOk =
    typeof retention === 'number' && Number.isInteger(retention) && retention >= min && retention <= max;
  const changedFeatures = profile.features.filter((f) => tiers[f.feature] !== f.tier);
  const unchanged = changedFeatures.length === 0 && retention === profile.document_retention_days;
  return (
    <Modal opened onClose={onClose} title={t('rules.editTitle')} size="lg" centered>
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {profile.features.map((f) => (
            <Select
              key={f.feature}
              label={t(`verification:feature.${f.feature}`)}
              value={tiers[f.feature] ?? f.tier}
              allowDeselect={false}
              onChange={(value) => {
                const tier = REQUIRED_TIERS.find((v) => v === value);
                if (tier) setTiers((x) => ({ ...x, [f.feature]: tier }));
              }}
              data={REQUIRED_TIERS.map((tier) => ({
                value: tier,
                label: t(`verification:requiredTier.${tier}`),
              }))}
              comboboxProps={{ withinPortal: true }}
              data-testid={`rule-${f.feature}`}
            />
          ))}
        </SimpleGrid>
        <NumberInput
          label={t('rules.retentionLabel', { min, max })}
          value={retention}
          onChange={setRetention}
          min={min}
          max={max}
          allowDecimal={false}
          error={form.tried && !retentionOk ? t('rules.retentionLabel', { min, max }) : undefined}
          data-testid="rule-retention"
        />
        <ReasonFooter
          form={form}
          onCancel={onClose}
          unchanged={form.tried && unchanged}
          saveTestId="rule-save"
          onSave={() =>
            void form.submit(
              retentionOk && !unchanged,
              () =>
                api.postJson('verification/rules/update', {
                  profile: 'custom',
                  features: profile.features.map((f) => ({
                    feature: f.feature,
                    tier: tiers[f.feature] ?? f.tier,
                  })),
                  document_retention_days: retention,
                  reason: form.reason.trim(),
                }),
              onSaved,
            )
          }
        />
      </Stack>
    </Modal>
  );
}

function ProfileCard({
  profile,
  active,
  mayWrite,
  onEdit,
}: {
  profile: Profile;
  active: boolean;
  mayWrite: boolean;
  onEdit: () => void;
}) {
  const { t } = useTranslation(['adminKyc', 'verification', 'admin']);
  return (
    <Paper withBorder radius="md" p="md" data-testid={`rules-${profile.id}`}>
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Group gap="xs">
            <Title order={3} size="h5">
              {t(`admin:derivatives.jurisdiction.profile.${profile.id}`)}
            </Title>
            {active ? (
              <Badge color="teal" variant="light">
                {t('rules.active')}
              </Badge>
            ) : null}
          </Group>
          {profile.editable ? (
            <Button size="xs" variant="light" disabled={!mayWrite} onClick={onEdit} data-testid="rules-edit">
              {t('rules.edit')}
            </Button>
          ) : (
            <Badge color="gray" variant="light">
              {t('rules.readOnly')}
            </Badge>
          )}
        </Group>
        <Table verticalSpacing={6}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('rules.feature')}</Table.Th>
              <Table.Th>{t('rules.required')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {profile.features.map((f: { feature: VerificationFeature; tier: RequiredTier }) => (
              <Table.Tr key={f.feature} data-feature={f.feature} data-tier={f.tier}>
                <Table.Td>{t(`verification:feature.${f.feature}`)}</Table.Td>
                <Table.Td>{t(`verification:requiredTier.${f.tier}`)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Text size="sm" c="dimmed">
          {t('rules.retentionDays', { days: profile.document_retention_days })}
        </Text>
      </Stack>
    </Paper>
  );
}

/**
 * What each verification tier unlocks, per jurisdiction profile (the built-in ones read only, the
 * custom one editable with a reason), and the four-eyes setting of the advanced tier. Every change
 * is audited.
 */
export default function VerificationRulesScreen() {
  const { t } = useTranslation(['adminKyc', 'verification']);
  const client = useQueryClient();
  const me = useStaffMe();
  const mayWrite = hasPermission(me.data, 'settings.write');
  const [editing, setEditing] = useState<Profile | null>(null);
  const [toggling, setToggling] = useState(false);
  const [saved, setSaved] = useState(false);
  const rules = useQuery({
    queryKey: RULES_KEY,
    queryFn: () => api.get<AdminVerificationRulesData>('verification/rules'),
  });
  const data = rules.data;
  const done = async () => {
    setSaved(true);
    setEditing(null);
    setToggling(false);
    await client.invalidateQueries({ queryKey: RULES_KEY });
  };
  return (
    <Stack data-testid="verification-rules">
      <Stack gap={4}>
        <Title order={2}>{t('rules.title')}</Title>
        <Text size="sm" c="dimmed">
          {t('rules.intro')}
        </Text>
      </Stack>
      <ErrorNote error={rules.error} />
      <SavedNote show={saved} onClose={() => setSaved(false)} />
      {!mayWrite ? (
        <Alert color="gray" variant="light">
          {t('rules.noWrite')}
        </Alert>
      ) : null}
      {data ? (
        <>
          <Paper withBorder radius="md" p="md" data-testid="four-eyes-setting">
            <Group justify="space-between" align="center">
              <Stack gap={2}>
                <Group gap="xs">
                  <Text fw={600}>{t('rules.fourEyes')}</Text>
                  <Badge
                    color={data.four_eyes_advanced ? 'violet' : 'gray'}
                    variant="light"
                    data-testid="four-eyes-state"
                    data-on={data.four_eyes_advanced ? '1' : '0'}
                  >
                    {data.four_eyes_advanced ? t('rules.fourEyesOn') : t('rules.fourEyesOff')}
                  </Badge>
                </Group>
                <Text size="sm" c="dimmed">
                  {t('rules.fourEyesHint')}
                </Text>
              </Stack>
              <Button
                variant="light"
                disabled={!mayWrite}
                onClick={() => setToggling(true)}
                data-testid="four-eyes-toggle"
              >
                {data.four_eyes_advanced ? t('rules.fourEyesTurnOff') : t('rules.fourEyesTurnOn')}
              </Button>
            </Group>
          </Paper>
          <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }} spacing="md">
            {data.profiles.map((profile) => (
              <ProfileCard
                key={profile.id}
                profile={profile}
                active={profile.id === data.active}
                mayWrite={mayWrite}
                onEdit={() => setEditing(profile)}
              />
            ))}
          </SimpleGrid>
          {editing ? (
            <EditCustom profile={editing} onClose={() => setEditing(null)} onSaved={() => void done()} />
          ) : null}
          <ReasonDialog
            opened={toggling}
            title={data.four_eyes_advanced ? t('rules.fourEyesTurnOff') : t('rules.fourEyesTurnOn')}
            text={t('rules.fourEyesHint')}
            confirmLabel={t('rules.save')}
            onClose={() => setToggling(false)}
            onSubmit={async (reason) => {
              await api.postJson('verification/settings', {
                four_eyes_advanced: !data.four_eyes_advanced,
                reason: reason.trim(),
              });
              await done();
            }}
          />
        </>
      ) : null}
    </Stack>
  );
}
