import { Anchor, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useArticle } from '../api/content.ts';
import { ArticleBody } from './ArticleBody.tsx';

/** /bannerDetail?id=: the full content behind a home banner. */
export function BannerDetailPage() {
  const { t } = useTranslation('market');
  const [params] = useSearchParams();
  const id = params.get('id');
  const banner = useArticle(id);
  return (
    <Stack gap="md" py={{ base: 'md', sm: 'xl' }} maw={860} mx="auto" w="100%" data-testid="banner-detail">
      <Anchor component={Link} to="/" size="sm">
        ← {t('content.backHome')}
      </Anchor>
      {id === null || banner.isError ? (
        <Text c="dimmed" data-testid="banner-not-found">
          {t('content.bannerNotFound')}
        </Text>
      ) : banner.isPending ? (
        <Loader size="sm" />
      ) : (
        <ArticleBody item={banner.data} />
      )}
    </Stack>
  );
}
