import { Anchor, Group, Loader, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { NewsIcon } from '../../../components/icons.tsx';
import { useArticles } from '../api/content.ts';
import { ArticleListItem } from './InfoPage.tsx';

const HOME_NEWS = 5;

/** The home page's news column: the latest articles (`web/getTextsList`); an honest empty state when there is none. */
export function NewsArea() {
  const { t } = useTranslation();
  const { t: tm } = useTranslation('market');
  const news = useArticles({ pageSize: HOME_NEWS });
  const items = news.data?.items ?? [];
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} h="100%" data-testid="news">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4">
          {t('home.news.title')}
        </Title>
        {items.length > 0 ? (
          <Anchor component={Link} to="/info" size="sm" data-testid="news-more">
            {tm('content.more')}
          </Anchor>
        ) : null}
      </Group>
      {news.isPending ? (
        <Stack align="center" py="xl">
          <Loader size="sm" />
        </Stack>
      ) : items.length === 0 ? (
        <Stack align="center" py="xl" gap="sm">
          <ThemeIcon variant="light" size={48} radius="xl" color="gray">
            <NewsIcon size={24} />
          </ThemeIcon>
          <Text c="dimmed" ta="center" size="sm" maw={320} data-testid="news-empty">
            {t('home.news.empty')}
          </Text>
        </Stack>
      ) : (
        <Stack gap={0} data-testid="news-list">
          {items.map((item) => (
            <ArticleListItem key={item.id} item={item} />
          ))}
        </Stack>
      )}
    </Paper>
  );
}
