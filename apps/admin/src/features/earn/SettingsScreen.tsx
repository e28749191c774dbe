import { EARN_LIMITS, VERIFICATION_TIERS } from '@bourse/protocol';
import {
  Alert,
  Button,
  Card,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DoneNote, ErrorNote } from '../../app/ui.tsx';
import { useEarnSettings, useSaveSettings } from './api.ts';
import { NoPermission, usePermission } from './parts.tsx';
import { type SettingsForm, settingsBody, settingsForm, type VipLevelForm } from './productForm.ts';

/** The VIP thresholds as editable rows. */
function LevelsTable({
  form,
  setForm,
  bad,
  disabled,
}: {
  form: SettingsForm;
  setForm: (f: SettingsForm) => void;
  bad: Set<string>;
  disabled: boolean;
}) {
  const { t } = useTranslation('adminEarn');
  const setLevel = (i: number, patch: Partial<VipLevelForm>) =>
    setForm({ ...form, levels: form.levels.map((l, j) => (j === i ? { ...l, ...patch } : l)) });
  return (
    <Table fz="sm" verticalSpacing={4} data-testid="earn-settings-levels">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('settings.level')}</Table.Th>
          <Table.Th>{t('settings.minTier')}</Table.Th>
          <Table.Th>{t('settings.volume')}</Table.Th>
          <Table.Th>{t('settings.balance')}</Table.Th>
          <Table.Th />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {form.levels.map((l, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place; the level itself is being typed
          <Table.Tr key={i}>
            <Table.Td w={100}>
              <TextInput
                size="xs"
                value={l.level}
                disabled={disabled}
                error={bad.has(`levels.${i}.level`)}
                onChange={(e) => setLevel(i, { level: e.currentTarget.value })}
                aria-label={t('settings.level')}
              />
            </Table.Td>
            <Table.Td w={180}>
              <Select
                size="xs"
                disabled={disabled}
                data={['none', ...VERIFICATION_TIERS].map((v) => ({
                  value: v,
                  label: t(`tier.${v as 'none'}`),
                }))}
                value={l.min_tier || 'none'}
                allowDeselect={false}
                onChange={(v) =>
                  setLevel(i, { min_tier: !v || v === 'none' ? '' : (v as VipLevelForm['min_tier']) })
                }
                aria-label={t('settings.minTier')}
              />
            </Table.Td>
            <Table.Td>
              <TextInput
                size="xs"
                value={l.min_volume_30d}
                disabled={disabled}
                error={bad.has(`levels.${i}.min_volume_30d`)}
                onChange={(e) => setLevel(i, { min_volume_30d: e.currentTarget.value })}
                aria-label={t('settings.volume')}
              />
            </Table.Td>
            <Table.Td>
              <TextInput
                size="xs"
                value={l.min_balance}
                disabled={disabled}
                error={bad.has(`levels.${i}.min_balance`)}
                onChange={(e) => setLevel(i, { min_balance: e.currentTarget.value })}
                aria-label={t('settings.balance')}
              />
            </Table.Td>
            <Table.Td>
              {disabled ? null : (
                <Button
                  size="compact-xs"
                  variant="subtle"
                  color="red"
                  onClick={() => setForm({ ...form, levels: form.levels.filter((_, j) => j !== i) })}
                >
                  {t('settings.remove')}
                </Button>
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The form with one more level row, numbered after the last. */
function withNewLevel(form: SettingsForm): SettingsForm {
  const level = {
    level: String(form.levels.length + 1),
    min_tier: 'primary' as const,
    min_volume_30d: '0',
    min_balance: '0',
  };
  return { ...form, levels: [...form.levels, level] };
}

/** What is about to be saved, and why, before it is. */
function ConfirmSettings({
  opened,
  form,
  error,
  pending,
  onClose,
  onConfirm,
}: {
  opened: boolean;
  form: SettingsForm;
  error: unknown;
  pending: boolean;
  onClose: () => void;
  onConfirm: () => void;
}) {
  const { t } = useTranslation('adminEarn');
  return (
    <Modal opened={opened} onClose={onClose} title={t('settings.confirmTitle')} centered>
      <Stack>
        <Text size="sm">
          {t('settings.confirmText', {
            hour: form.cutoff_hour.padStart(2, '0'),
            zone: form.time_zone,
            levels: form.levels.length,
          })}
        </Text>
        <Text size="sm" c="dimmed">
          {t('common.reason')}: {form.reason.trim()}
        </Text>
        <ErrorNote error={error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button loading={pending} onClick={onConfirm} data-testid="earn-settings-confirm">
            {t('settings.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Cut-off hour and time zone, the published VIP thresholds; saved with a reason after a confirmation. */
export default function SettingsScreen() {
  const { t } = useTranslation('adminEarn');
  const settings = useEarnSettings();
  const save = useSaveSettings();
  const write = usePermission('earn.write');
  const [form, setForm] = useState<SettingsForm | null>(null);
  const [bad, setBad] = useState<Set<string>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (settings.data) setForm(settingsForm(settings.data));
  }, [settings.data]);
  if (!form) return <ErrorNote error={settings.error} />;
  const disabled = !write.allowed;
  const check = () => {
    const { body, bad: problems } = settingsBody(form);
    setBad(problems);
    if (body) setConfirming(true);
  };
  const submit = () => {
    const { body } = settingsBody(form);
    if (!body) return;
    save.mutate(body, {
      onSuccess: () => {
        setConfirming(false);
        setSaved(true);
      },
    });
  };
  return (
    <Stack>
      <Title order={2}>{t('settings.title')}</Title>
      <Text size="sm" c="dimmed">
        {t('settings.intro')}
      </Text>
      {disabled ? <NoPermission permission="earn.write" /> : null}
      <DoneNote onClose={() => setSaved(false)} data-testid="earn-settings-saved">
        {saved ? t('settings.saved') : null}
      </DoneNote>
      <Card withBorder>
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('settings.cutoffHour')}
              value={form.cutoff_hour}
              disabled={disabled}
              error={bad.has('cutoff_hour')}
              onChange={(e) => setForm({ ...form, cutoff_hour: e.currentTarget.value })}
              data-testid="earn-settings-hour"
            />
            <TextInput
              label={t('settings.timeZone')}
              value={form.time_zone}
              disabled={disabled}
              error={bad.has('time_zone')}
              onChange={(e) => setForm({ ...form, time_zone: e.currentTarget.value })}
              data-testid="earn-settings-zone"
            />
          </SimpleGrid>
          <Title order={4}>{t('settings.levels')}</Title>
          <LevelsTable form={form} setForm={setForm} bad={bad} disabled={disabled} />
          {disabled || form.levels.length >= EARN_LIMITS.vipLevelMax ? null : (
            <Button
              variant="default"
              size="xs"
              style={{ alignSelf: 'flex-start' }}
              onClick={() => setForm(withNewLevel(form))}
              data-testid="earn-settings-add"
            >
              {t('settings.addLevel')}
            </Button>
          )}
          <Textarea
            label={t('common.reason')}
            value={form.reason}
            disabled={disabled}
            error={bad.has('reason')}
            maxLength={EARN_LIMITS.reasonMax}
            onChange={(e) => setForm({ ...form, reason: e.currentTarget.value })}
            data-testid="earn-settings-reason"
          />
          {bad.size > 0 ? (
            <Alert color="orange" variant="light">
              {t('settings.bad')}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button disabled={disabled} onClick={check} data-testid="earn-settings-save">
              {t('settings.save')}
            </Button>
          </Group>
        </Stack>
      </Card>
      <ConfirmSettings
        opened={confirming}
        form={form}
        error={save.error}
        pending={save.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={submit}
      />
    </Stack>
  );
}
