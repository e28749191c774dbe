import type { VerificationFlag, VerificationState } from '@bourse/protocol';
import { Badge, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ageOf } from './logic.ts';

const STATE_COLOR: Record<VerificationState, string> = {
  not_submitted: 'gray',
  under_review: 'blue',
  approved: 'teal',
  rejected: 'red',
  revision_requested: 'orange',
};

const FLAG_COLOR: Record<VerificationFlag['code'], string> = {
  duplicate_id_number: 'red',
  duplicate_image: 'red',
  name_changed: 'orange',
  resubmitted: 'gray',
};

export function StateBadge({ state }: { state: VerificationState }) {
  const { t } = useTranslation('verification');
  return (
    <Badge variant="light" color={STATE_COLOR[state]} data-testid="verification-state" data-state={state}>
      {t(`state.${state}`)}
    </Badge>
  );
}

/** The queue's and the detail's flags: duplicate ID number or image (with the other customer), name changed, resubmitted. */
export function FlagBadges({ flags }: { flags: readonly VerificationFlag[] }) {
  const { t } = useTranslation(['adminKyc', 'verification']);
  if (flags.length === 0)
    return (
      <Text size="xs" c="dimmed">
        {t('detail.noFlags')}
      </Text>
    );
  return (
    <Group gap={4} data-testid="verification-flags">
      {flags.map((flag) => (
        <Badge
          key={flag.code}
          color={FLAG_COLOR[flag.code]}
          variant="light"
          tt="none"
          fw={500}
          style={{ whiteSpace: 'normal', height: 'auto' }}
          data-testid={`flag-${flag.code}`}
        >
          {flag.code === 'resubmitted'
            ? t('verification:flag.resubmitted', { count: Number(flag.params.count ?? 0) })
            : t(`verification:flag.${flag.code}`, {
                uid: String(flag.params.uid ?? ''),
                previous: String(flag.params.previous ?? ''),
              })}
        </Badge>
      ))}
    </Group>
  );
}

/** "3 h 20 min" since the submission. */
export function AgeText({ ageMs }: { ageMs: number }) {
  const { t } = useTranslation('adminKyc');
  const age = ageOf(ageMs);
  const text =
    age.unit === 'minutes'
      ? t('age.minutes', { minutes: age.minutes })
      : age.unit === 'hours'
        ? t('age.hours', { hours: age.hours, minutes: age.minutes })
        : t('age.days', { days: age.days, hours: age.hours });
  return (
    <Text
      component="span"
      size="sm"
      c={age.unit === 'days' ? 'red' : undefined}
      style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}
      data-testid="verification-age"
    >
      {text}
    </Text>
  );
}
