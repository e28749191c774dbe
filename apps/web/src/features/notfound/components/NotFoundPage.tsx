import { Button, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** Any path outside the route table, and /404. */
export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Stack align="center" ta="center" gap="md" py={{ base: 48, sm: 96 }} px="md" data-testid="not-found-page">
      <Text
        fw={800}
        fz={{ base: 64, sm: 96 }}
        lh={1}
        c="dimmed"
        aria-hidden="true"
        style={{ fontVariantNumeric: 'tabular-nums' }}
      >
        {t('notFound.code')}
      </Text>
      <Title order={1} size="h2">
        {t('notFound.title')}
      </Title>
      <Text c="dimmed" maw={480}>
        {t('notFound.body')}
      </Text>
      <Button component={Link} to="/" variant="light" mt="sm" data-testid="not-found-home">
        {t('ui.backHome')}
      </Button>
    </Stack>
  );
}
