import type { AdminReferralSettingsData } from '@bourse/protocol';
import { REFERRAL_DEPTH_MAX } from '@bourse/risk';
import {
  Alert,
  Button,
  Group,
  Paper,
  SegmentedControl,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { DoneNote, ErrorNote } from '../../app/ui.tsx';
import { useReferralSettings, useSaveSettings } from './api.ts';
import { bpsOfPercent, percentOfBps, previewOneUsdt } from './logic.ts';

type Draft = { enabled: boolean; depth: number; percents: string[]; reason: string };

function draftOf(s: AdminReferralSettingsData): Draft {
  const percents = Array.from({ length: REFERRAL_DEPTH_MAX }, (_, i) => percentOfBps(s.shares_bps[i] ?? 0));
  return { enabled: s.enabled, depth: s.depth, percents, reason: '' };
}

function Preview({ sharesBps, depth }: { sharesBps: number[]; depth: number }) {
  const { t } = useTranslation('adminReferral');
  const lines = previewOneUsdt(sharesBps, depth);
  return (
    <Paper withBorder p="sm" radius="md" data-testid="referral-preview">
      <Text size="sm" fw={600}>
        {t('settings.preview')}
      </Text>
      {lines.length === 0 ? (
        <Text size="sm">{t('settings.previewNone')}</Text>
      ) : (
        lines.map((l) => (
          <Text key={l.level} size="sm" data-testid="referral-preview-line">
            {t('settings.previewLine', { level: l.level, amount: l.amount })}
          </Text>
        ))
      )}
    </Paper>
  );
}

/** The programme: on/off, depth (≤ the profile's maximum), a share per level, the preview, a reason. */
export function SettingsPanel({ canWrite }: { canWrite: boolean }) {
  const { t } = useTranslation('adminReferral');
  const lang = useLang();
  const settings = useReferralSettings();
  const save = useSaveSettings();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [done, setDone] = useState(false);
  useEffect(() => {
    if (settings.data && draft === null) setDraft(draftOf(settings.data));
  }, [settings.data, draft]);
  if (!settings.data || !draft) return <ErrorNote error={settings.error} />;
  const s = settings.data;
  const levels = draft.percents.slice(0, draft.depth);
  const parsed = levels.map(bpsOfPercent);
  const sharesBps = parsed.map((b) => b ?? 0);
  const total = sharesBps.reduce((a, b) => a + b, 0);
  const valid = parsed.every((b) => b !== null) && total <= 10_000 && draft.reason.trim().length >= 3;
  const effective = Math.min(draft.enabled ? draft.depth : 0, s.profile_max_depth);
  const submit = () =>
    save.mutate(
      { enabled: draft.enabled, depth: draft.depth, sharesBps, reason: draft.reason.trim() },
      {
        onSuccess: (data) => {
          setDraft(draftOf(data));
          setDone(true);
        },
      },
    );
  return (
    <Stack gap="md" maw={720} data-testid="referral-settings">
      <Text size="sm" c="dimmed">
        {t('settings.lead')}
      </Text>
      <Alert color="blue" variant="light" data-testid="referral-profile-max">
        {t('settings.profileMax', { max: s.profile_max_depth })}{' '}
        {t('settings.effective', { depth: s.effective_depth })}
      </Alert>
      <Switch
        label={t('settings.enabled')}
        checked={draft.enabled}
        disabled={!canWrite}
        onChange={(e) => setDraft({ ...draft, enabled: e.currentTarget.checked })}
        data-testid="referral-enabled"
      />
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          {t('settings.depth')}
        </Text>
        <SegmentedControl
          w="fit-content"
          value={String(draft.depth)}
          disabled={!canWrite}
          onChange={(v) => setDraft({ ...draft, depth: Number(v) })}
          data={Array.from({ length: s.profile_max_depth + 1 }, (_, d) => ({
            value: String(d),
            label: String(d),
          }))}
          data-testid="referral-depth"
        />
      </Stack>
      <Group gap="sm" align="flex-start">
        {levels.map((p, i) => (
          <TextInput
            // biome-ignore lint/suspicious/noArrayIndexKey: one input per level, the level is the key
            key={i}
            label={t('settings.share', { level: i + 1 })}
            value={p}
            disabled={!canWrite}
            error={parsed[i] === null}
            onChange={(e) => {
              const percents = [...draft.percents];
              percents[i] = e.currentTarget.value;
              setDraft({ ...draft, percents });
            }}
            w={150}
            data-testid="referral-share"
          />
        ))}
      </Group>
      <Text size="sm" c={total > 10_000 ? 'red' : 'dimmed'} data-testid="referral-shares-total">
        {t('settings.sharesTotal', { total: percentOfBps(total) })}
      </Text>
      <Preview sharesBps={sharesBps} depth={effective} />
      {canWrite ? (
        <>
          <Textarea
            label={t('common.reason')}
            description={t('common.reasonHint')}
            value={draft.reason}
            maxLength={500}
            autosize
            minRows={2}
            onChange={(e) => setDraft({ ...draft, reason: e.currentTarget.value })}
            data-testid="referral-reason"
          />
          <ErrorNote error={save.error} />
          <DoneNote onClose={() => setDone(false)} data-testid="referral-saved">
            {done ? t('settings.saved') : null}
          </DoneNote>
          <Group>
            <Button disabled={!valid} loading={save.isPending} onClick={submit} data-testid="referral-save">
              {t('settings.save')}
            </Button>
          </Group>
        </>
      ) : (
        <Text size="sm" c="dimmed">
          {t('common.noPermission', { permission: 'referral.write' })}
        </Text>
      )}
      {s.updated_at ? (
        <Text size="xs" c="dimmed">
          {t('settings.updated', {
            time: formatTime(s.updated_at, lang),
            by: s.updated_by ?? '—',
          })}
        </Text>
      ) : null}
    </Stack>
  );
}
