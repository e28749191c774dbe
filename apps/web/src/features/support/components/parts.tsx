import { type Lang, SUPPORT_SAFETY_RULES, type SupportInfoData } from '@bourse/protocol';
import { Alert, Button, Group, List, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useLang } from '../../../lib/i18n.ts';
import { daysText, parseHours, zoneName } from '../../../shared/instrument/hours.ts';
import { useVerifyStaff } from '../api.ts';

/** A refusal or failure in the server's localized words. */
export function ErrorText({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <Text size="sm" c="red" data-testid="support-error">
      {error instanceof ApiError || error instanceof Error ? error.message : String(error)}
    </Text>
  );
}

/** What staff never ask for: on every support screen (issue 20: impersonators steal through support). */
export function SafetyNotice() {
  const { t } = useTranslation('support');
  return (
    <Alert color="orange" title={t('safety.title')} data-testid="support-safety">
      <List size="sm" spacing={2}>
        {SUPPORT_SAFETY_RULES.map((rule) => (
          <List.Item key={rule} data-rule={rule}>
            {t(`safety.${rule}`)}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}

/**
 * The staffed hours (the market's hours grammar, `Asia/Hong_Kong Mon-Fri 09:00-18:00`) in the
 * reader's words — days and zone localized with the trading hours' own wording; as written when the
 * text is not in the grammar.
 */
export function hoursInWords(hours: string, lang: Lang, t: TFunction<'market'>): string {
  const parsed = parseHours(hours);
  if (!parsed) return hours;
  if (parsed.always) return t('hours.always');
  return parsed.parts
    .map((part) => {
      const zone = zoneName(part.zone, lang) ?? t('hours.utc');
      const when =
        part.kind === 'window'
          ? t('hours.window', {
              fromDay: daysText([part.fromDay], lang),
              fromTime: part.fromTime,
              toDay: daysText([part.toDay], lang),
              toTime: part.toTime,
            })
          : `${daysText(part.days, lang)} ${
              part.overnight
                ? t('hours.overnight', { from: part.from, to: part.to })
                : t('hours.range', { from: part.from, to: part.to })
            }`;
      return lang === 'en' ? `${when} (${zone})` : `${when}（${zone}）`;
    })
    .join(lang === 'en' ? '; ' : '；');
}

/** The staffed hours as the server states them, and — outside them — when staff are next in. */
export function HoursNotice({ info }: { info: SupportInfoData | undefined }) {
  const { t } = useTranslation('support');
  const { t: tMarket } = useTranslation('market');
  const lang = useLang();
  if (!info) return null;
  return (
    <Paper withBorder radius="md" p="sm" data-testid="support-hours" data-open={info.open_now ? '1' : '0'}>
      <Stack gap={4}>
        <Text fw={600}>{t('hours.title')}</Text>
        <Text size="sm" data-testid="support-hours-text">
          {t('hours.schedule', { hours: hoursInWords(info.hours, lang, tMarket) })}
        </Text>
        {info.open_now ? (
          <Text size="sm" c="teal">
            {t('hours.openNow')}
          </Text>
        ) : (
          <Text size="sm" c="orange" data-testid="support-out-of-hours">
            {info.next_open_at
              ? t('hours.closed', { next: formatDateTime(info.next_open_at, lang) })
              : t('hours.closedNoNext')}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

/** Check a staff code in the app: a current staff member's, with their display name, or not. */
export function StaffCheck() {
  const { t } = useTranslation('support');
  const verify = useVerifyStaff();
  const [code, setCode] = useState('');
  const answer = verify.data;
  return (
    <Paper withBorder radius="md" p="sm" data-testid="support-verify">
      <Stack gap="xs">
        <Title order={4}>{t('verify.title')}</Title>
        <Text size="sm" c="dimmed">
          {t('verify.hint')}
        </Text>
        <Group align="flex-end" wrap="nowrap">
          <TextInput
            style={{ flex: 1 }}
            label={t('verify.label')}
            value={code}
            maxLength={16}
            onChange={(e) => setCode(e.currentTarget.value)}
            data-testid="support-verify-input"
          />
          <Button
            onClick={() => verify.mutate(code.trim())}
            disabled={code.trim() === ''}
            loading={verify.isPending}
            data-testid="support-verify-button"
          >
            {t('verify.button')}
          </Button>
        </Group>
        {answer ? (
          <Text
            size="sm"
            c={answer.valid ? 'teal' : 'red'}
            fw={600}
            data-testid="support-verify-result"
            data-valid={answer.valid ? '1' : '0'}
          >
            {answer.valid
              ? t('verify.valid', { code: answer.code, name: answer.name ?? '' })
              : t('verify.invalid', { code: answer.code })}
          </Text>
        ) : null}
        <ErrorText error={verify.error} />
      </Stack>
    </Paper>
  );
}
