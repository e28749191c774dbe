import type { ArticleKind, ContentData, Lang } from '@bourse/protocol';
import {
  Anchor,
  Badge,
  Button,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { formatDate } from '../../../lib/format.ts';
import { useLang } from '../../../lib/i18n.ts';
import { useArticle, useArticles } from '../api/content.ts';
import { ArticleBody } from './ArticleBody.tsx';

const PAGE = 20;

export function ArticleListItem({ item }: { item: ContentData }) {
  const { t } = useTranslation('market');
  const lang = useLang() as Lang;
  return (
    <UnstyledButton
      component={Link}
      to={`/info?id=${encodeURIComponent(item.id)}`}
      py="sm"
      data-testid="article-item"
      style={{ display: 'block', borderBottom: '1px solid var(--mantine-color-default-border)' }}
    >
      <Group gap="xs" mb={4}>
        <Badge size="xs" variant="light" color={item.kind === 'announcement' ? 'orange' : 'blue'}>
          {t(item.kind === 'announcement' ? 'content.announcement' : 'content.news')}
        </Badge>
        <Text size="xs" c="dimmed">
          {formatDate(item.published_at, lang)}
        </Text>
      </Group>
      <Text fw={600}>{item.title}</Text>
      {item.summary ? (
        <Text size="sm" c="dimmed" lineClamp={2}>
          {item.summary}
        </Text>
      ) : null}
    </UnstyledButton>
  );
}

function Detail({ id }: { id: string }) {
  const { t } = useTranslation('market');
  const article = useArticle(id);
  return (
    <Stack gap="md" py={{ base: 'md', sm: 'xl' }} maw={860} mx="auto" w="100%" data-testid="info-detail">
      <Anchor component={Link} to="/info" size="sm">
        ← {t('content.backToNews')}
      </Anchor>
      {article.isPending ? (
        <Loader size="sm" />
      ) : article.isError ? (
        <Text c="dimmed" data-testid="article-not-found">
          {t('content.notFound')}
        </Text>
      ) : (
        <ArticleBody item={article.data} />
      )}
    </Stack>
  );
}

/** /info: news and announcements (`?id=` opens one). */
export function InfoPage() {
  const { t } = useTranslation('market');
  const [params] = useSearchParams();
  const [kind, setKind] = useState<ArticleKind | 'all'>('all');
  const [size, setSize] = useState(PAGE);
  const list = useArticles({ kind: kind === 'all' ? undefined : kind, pageSize: size });
  const id = params.get('id');
  if (id) return <Detail key={id} id={id} />;

  return (
    <Stack gap="md" py={{ base: 'md', sm: 'xl' }} maw={960} mx="auto" w="100%" data-testid="info-page">
      <Title order={1} fz={{ base: 22, sm: 28 }}>
        {t('content.infoTitle')}
      </Title>
      <SegmentedControl
        value={kind}
        onChange={(value) => {
          setKind(value as ArticleKind | 'all');
          setSize(PAGE);
        }}
        data={[
          { value: 'all', label: t('content.all') },
          { value: 'news', label: t('content.news') },
          { value: 'announcement', label: t('content.announcement') },
        ]}
        style={{ alignSelf: 'flex-start' }}
      />
      <Paper withBorder radius="md" px="md">
        {list.isPending ? (
          <Stack align="center" py={40}>
            <Loader size="sm" />
          </Stack>
        ) : list.isError || list.data.items.length === 0 ? (
          <Text c="dimmed" ta="center" py={40} data-testid="info-empty">
            {t('content.empty')}
          </Text>
        ) : (
          list.data.items.map((item) => <ArticleListItem key={item.id} item={item} />)
        )}
      </Paper>
      {list.data && list.data.total > list.data.items.length && size < 50 ? (
        <Button
          variant="light"
          onClick={() => setSize((n) => Math.min(50, n + PAGE))}
          style={{ alignSelf: 'center' }}
        >
          {t('content.loadMore')}
        </Button>
      ) : null}
    </Stack>
  );
}
