import { Alert, Button, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePublicConfig } from '../../../api/publicConfig.ts';
import { STORAGE_KEYS } from '../../../config/app.ts';
import { formatDateTime, toMs } from '../../../lib/format.ts';
import { useLang } from '../../../lib/i18n.ts';
import { session } from '../../../lib/storage.ts';
import { useTempLogin } from '../api/tempLogin.ts';
import { useSignedIn } from '../hooks/useSignedIn.ts';
import { FormAlert, refusalOf } from './FormAlert.tsx';

/** "Create demo account" (GET web/tempLogin); after a demo expired, the login page says so here. */
export function DemoAccount() {
  const { t } = useTranslation();
  const lang = useLang();
  const config = usePublicConfig();
  const signedIn = useSignedIn();
  const temp = useTempLogin();
  const [expired] = useState(() => session.get(STORAGE_KEYS.demoExpired) === '1');

  const create = () =>
    temp.mutate(undefined, {
      onSuccess: (data) =>
        signedIn(data.token, t('auth.demo.created', { time: formatDateTime(toMs(data.expires_at), lang) })),
    });

  return (
    <Stack gap="xs">
      {expired ? (
        <Alert color="yellow" variant="light" role="status" data-testid="demo-expired">
          {t('auth.login.demoExpired')}
        </Alert>
      ) : null}
      <FormAlert message={refusalOf(temp.error)} testId="demo-error" />
      <Button
        variant={expired ? 'filled' : 'default'}
        size="md"
        fullWidth
        loading={temp.isPending}
        onClick={create}
        data-testid="demo-create"
      >
        {t('auth.demo.button')}
      </Button>
      {config.data ? (
        <Text size="xs" c="dimmed" ta="center" data-testid="demo-hint">
          {t('auth.demo.hint', { hours: config.data.demo_ttl_hours })}
        </Text>
      ) : null}
    </Stack>
  );
}
