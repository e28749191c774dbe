import { Button, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/**
 * The one shared page for routes of the table that are not built yet. The route's translated title
 * is passed in (app/ knows the route table; features do not).
 */
export function UnavailablePage({ title, icon }: { title: string; icon?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Stack
      align="center"
      ta="center"
      gap="md"
      py={{ base: 48, sm: 96 }}
      px="md"
      data-testid="unavailable-page"
    >
      {icon ? (
        <ThemeIcon variant="light" size={64} radius="xl">
          {icon}
        </ThemeIcon>
      ) : null}
      <Title order={1} size="h2" data-testid="unavailable-title">
        {t('unavailable.title', { page: title })}
      </Title>
      <Text c="dimmed" maw={480}>
        {t('unavailable.body')}
      </Text>
      <Button component={Link} to="/" variant="light" mt="sm" data-testid="unavailable-home">
        {t('ui.backHome')}
      </Button>
    </Stack>
  );
}
