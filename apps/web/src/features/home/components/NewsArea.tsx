import { Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { NewsIcon } from '../../../components/icons.tsx';

/** The news column. No news source is served yet, so it says so instead of showing filler. */
export function NewsArea() {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} h="100%" data-testid="news">
      <Title order={2} size="h4" mb="md">
        {t('home.news.title')}
      </Title>
      <Stack align="center" py="xl" gap="sm">
        <ThemeIcon variant="light" size={48} radius="xl" color="gray">
          <NewsIcon size={24} />
        </ThemeIcon>
        <Text c="dimmed" ta="center" size="sm" maw={320} data-testid="news-empty">
          {t('home.news.empty')}
        </Text>
      </Stack>
    </Paper>
  );
}
