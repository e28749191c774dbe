import type { ContentData, Lang } from '@bourse/protocol';
import { Anchor, Badge, Group, Image, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate } from '../../../lib/format.ts';
import { useLang } from '../../../lib/i18n.ts';
import { Markdown } from './Markdown.tsx';

/** An article's (or banner's) full text: the body as the server rendered and sanitized it (Markdown.tsx). */
export function ArticleBody({ item }: { item: ContentData }) {
  const { t } = useTranslation('market');
  const lang = useLang() as Lang;
  const internal = item.link?.startsWith('/') ?? false;
  return (
    <Stack gap="md" data-testid="article" data-id={item.id}>
      <Group gap="xs">
        {item.kind !== 'banner' ? (
          <Badge variant="light" color={item.kind === 'announcement' ? 'orange' : 'blue'}>
            {t(item.kind === 'announcement' ? 'content.announcement' : 'content.news')}
          </Badge>
        ) : null}
        <Text size="sm" c="dimmed">
          {t('content.published', { date: formatDate(item.published_at, lang) })}
        </Text>
      </Group>
      <Title order={1} fz={{ base: 22, sm: 30 }} data-testid="article-title">
        {item.title}
      </Title>
      {item.image_url ? <Image src={item.image_url} alt="" radius="md" mah={360} fit="cover" /> : null}
      <Markdown html={item.body_html} />
      {item.link ? (
        internal ? (
          <Anchor component={Link} to={item.link} data-testid="article-link">
            {t('content.open')} →
          </Anchor>
        ) : (
          <Anchor href={item.link} target="_blank" rel="noopener noreferrer" data-testid="article-link">
            {t('content.open')} →
          </Anchor>
        )
      ) : null}
    </Stack>
  );
}
