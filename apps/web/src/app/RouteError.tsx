import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';

/**
 * When a screen fails to load or render (typically a chunk from an older deploy that is gone), say so
 * and offer a reload; the error itself goes to the console.
 */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  useEffect(() => {
    console.error('[router] a screen failed', error);
  }, [error]);
  return (
    <Center mih="60vh" p="md">
      <Stack align="center" ta="center" gap="md" data-testid="route-error">
        <Title order={1} size="h2">
          {t('routeError.title')}
        </Title>
        <Text c="dimmed">{t('routeError.body')}</Text>
        <Button onClick={() => window.location.reload()}>{t('routeError.reload')}</Button>
      </Stack>
    </Center>
  );
}

/** What shows while the first screen's code loads. */
export function BootScreen() {
  const { t } = useTranslation();
  return (
    <Center mih="100vh">
      <Text c="dimmed" size="sm">
        {t('app.loading')}
      </Text>
    </Center>
  );
}
