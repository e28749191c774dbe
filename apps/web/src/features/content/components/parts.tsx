import type { ContentData, Lang } from '@bourse/protocol';
import {
  Anchor,
  Badge,
  Button,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate } from '../../../lib/format.ts';
import { useLang } from '../../../lib/i18n.ts';
import { Markdown } from './Markdown.tsx';

/** The frame of every content page: one column, readable width, heading and lead. */
export function ContentPage(props: {
  testId: string;
  title: string;
  lead?: string;
  back?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Stack
      gap="md"
      py={{ base: 'md', sm: 'xl' }}
      px={{ base: 'xs', sm: 0 }}
      maw={960}
      mx="auto"
      w="100%"
      data-testid={props.testId}
    >
      {props.back}
      {props.title ? (
        <Title order={1} fz={{ base: 22, sm: 30 }} data-testid="content-title">
          {props.title}
        </Title>
      ) : null}
      {props.lead ? (
        <Text c="dimmed" maw={720}>
          {props.lead}
        </Text>
      ) : null}
      {props.children}
    </Stack>
  );
}

export function BackLink({ to, label }: { to: string; label: string }) {
  return (
    <Anchor component={Link} to={to} size="sm" data-testid="content-back">
      ← {label}
    </Anchor>
  );
}

/** Loading, failed (with a retry) or the content: every list and article goes through it. */
export function Loadable(props: {
  query: { isPending: boolean; isError: boolean; refetch: () => unknown };
  children: () => ReactNode;
}) {
  const { t } = useTranslation('content');
  if (props.query.isError)
    return (
      <Stack align="center" py={40} gap="sm" data-testid="content-error">
        <Text c="dimmed">{t('state.error')}</Text>
        <Button variant="light" size="xs" onClick={() => void props.query.refetch()}>
          {t('state.retry')}
        </Button>
      </Stack>
    );
  if (props.query.isPending)
    return (
      <Stack align="center" py={40} data-testid="content-loading">
        <Loader size="sm" />
      </Stack>
    );
  return <>{props.children()}</>;
}

export function Empty({ text }: { text: string }) {
  return (
    <Text c="dimmed" ta="center" py={40} data-testid="content-empty">
      {text}
    </Text>
  );
}

const KIND_KEY = {
  banner: 'kind.news',
  news: 'kind.news',
  announcement: 'kind.announcement',
  help: 'kind.help',
  about: 'kind.about',
  security: 'kind.security',
  benefit: 'kind.benefit',
  text: 'kind.text',
} as const satisfies Record<ContentData['kind'], string>;

/** One entry in a list: kind, date, title and summary, leading to its page. */
export function EntryLink({ item, to }: { item: ContentData; to: string }) {
  const { t } = useTranslation('content');
  const lang = useLang() as Lang;
  return (
    <UnstyledButton
      component={Link}
      to={to}
      py="sm"
      px="md"
      data-testid="content-item"
      data-id={item.id}
      style={{ display: 'block', borderBottom: '1px solid var(--mantine-color-default-border)' }}
    >
      <Group gap="xs" mb={4}>
        <Badge size="xs" variant="light" color={item.kind === 'announcement' ? 'orange' : 'blue'}>
          {t(KIND_KEY[item.kind])}
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

export function EntryList({ items, href }: { items: ContentData[]; href: (item: ContentData) => string }) {
  return (
    <Paper withBorder radius="md" data-testid="content-list">
      {items.map((item) => (
        <EntryLink key={item.id} item={item} to={href(item)} />
      ))}
    </Paper>
  );
}

/** A whole entry: its date, title, picture, rendered body and link. */
export function Article({ item, showTitle = true }: { item: ContentData; showTitle?: boolean }) {
  const { t } = useTranslation('content');
  const lang = useLang() as Lang;
  const internal = item.link?.startsWith('/') ?? false;
  return (
    <Stack gap="md" data-testid="article" data-id={item.id}>
      {showTitle ? (
        <Title order={2} fz={{ base: 20, sm: 26 }} data-testid="article-title">
          {item.title}
        </Title>
      ) : null}
      <Text size="sm" c="dimmed">
        {t('published', { date: formatDate(item.published_at, lang) })}
      </Text>
      {item.image_url ? (
        <img src={item.image_url} alt="" style={{ maxWidth: '100%', maxHeight: 360, borderRadius: 8 }} />
      ) : null}
      <Markdown html={item.body_html} />
      {item.link ? (
        internal ? (
          <Anchor component={Link} to={item.link} data-testid="article-link">
            {t('open')} →
          </Anchor>
        ) : (
          <Anchor href={item.link} target="_blank" rel="noopener noreferrer" data-testid="article-link">
            {t('open')} →
          </Anchor>
        )
      ) : null}
    </Stack>
  );
}

/** Where an entry found by search opens, by its kind. */
export function entryHref(item: Pick<ContentData, 'id' | 'kind'>): string {
  const id = encodeURIComponent(item.id);
  if (item.kind === 'help') return `/helpDetail?id=${id}`;
  if (item.kind === 'news' || item.kind === 'announcement') return `/setting-newdetail?id=${id}`;
  if (item.kind === 'benefit') return `/benefitsDetail?id=${id}`;
  return `/text?id=${id}`;
}
