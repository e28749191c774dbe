import { Alert, Badge, Card, Group, Loader, Stack, Switch, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api.ts';
import { useNoticePrefs, useSetNoticePref } from '../api.ts';

/** Which kinds also go by e-mail; security kinds are shown on and locked, and the screen says why. */
export function PrefsSection() {
  const { t } = useTranslation('notice');
  const prefs = useNoticePrefs();
  const set = useSetNoticePref();
  const error = set.error;
  return (
    <Card withBorder padding="md" data-testid="notice-prefs">
      <Stack gap="sm">
        <Title order={4}>{t('prefs.title')}</Title>
        <Text size="sm" c="dimmed">
          {t('prefs.intro')}
        </Text>
        <Alert color="blue" variant="light" data-testid="notice-prefs-locked">
          <Text size="sm">{t('prefs.locked')}</Text>
        </Alert>
        {prefs.isPending ? (
          <Loader size="sm" />
        ) : prefs.isError ? (
          <Text size="sm" c="red" data-testid="notice-prefs-error">
            {t('failed')}
          </Text>
        ) : (
          <Stack gap="xs">
            {prefs.data.items.map((p) => (
              <Group
                key={p.kind}
                justify="space-between"
                wrap="nowrap"
                data-testid="notice-pref"
                data-kind={p.kind}
              >
                <Text size="sm">{t(`kind.${p.kind}`)}</Text>
                <Group gap="xs" wrap="nowrap">
                  {p.locked ? (
                    <Badge size="xs" variant="light" color="gray">
                      {t('prefs.alwaysOn')}
                    </Badge>
                  ) : null}
                  <Switch
                    checked={p.email}
                    disabled={p.locked || set.isPending}
                    onChange={(e) => set.mutate({ kind: p.kind, email: e.currentTarget.checked })}
                    aria-label={t(`kind.${p.kind}`)}
                    data-testid={`notice-pref-${p.kind}`}
                  />
                </Group>
              </Group>
            ))}
          </Stack>
        )}
        {error ? (
          <Text size="sm" c="red" data-testid="notice-prefs-refused">
            {error instanceof ApiError && error.kind === 'refused' ? error.message : t('failed')}
          </Text>
        ) : null}
        <Text size="xs" c="dimmed">
          {t('official')}
        </Text>
      </Stack>
    </Card>
  );
}
