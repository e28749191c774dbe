import type { ListedKind } from '@bourse/protocol';
import { Anchor, Button, List, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useEntries } from '../api/entries.ts';
import { ArticleDetail } from './ArticleDetail.tsx';
import { Article, ContentPage, Empty, EntryList, Loadable } from './parts.tsx';

const PAGE = 20;
const PAGE_MAX = 50;

/** /settingNew: the news flash — news and announcements, newest first. */
export function NewsFlashPage() {
  const { t } = useTranslation('content');
  const [kind, setKind] = useState<'all' | 'news' | 'announcement'>('all');
  const [size, setSize] = useState(PAGE);
  const list = useEntries({ kind: kind === 'all' ? undefined : kind, pageSize: size });
  return (
    <ContentPage testId="news-flash-page" title={t('news.title')} lead={t('news.lead')}>
      <SegmentedControl
        value={kind}
        onChange={(value) => {
          setKind(value as typeof kind);
          setSize(PAGE);
        }}
        data={[
          { value: 'all', label: t('news.all') },
          { value: 'news', label: t('kind.news') },
          { value: 'announcement', label: t('kind.announcement') },
        ]}
        style={{ alignSelf: 'flex-start' }}
        data-testid="news-flash-kind"
      />
      <Loadable query={list}>
        {() =>
          list.data && list.data.items.length > 0 ? (
            <EntryList
              items={list.data.items}
              href={(item) => `/setting-newdetail?id=${encodeURIComponent(item.id)}`}
            />
          ) : (
            <Empty text={t('news.empty')} />
          )
        }
      </Loadable>
      {list.data && list.data.total > list.data.items.length && size < PAGE_MAX ? (
        <Button
          variant="light"
          onClick={() => setSize((n) => Math.min(PAGE_MAX, n + PAGE))}
          style={{ alignSelf: 'center' }}
        >
          {t('news.more')}
        </Button>
      ) : null}
    </ContentPage>
  );
}

/** Every published entry of one kind shown in full, one after another (about, security). */
function FullEntries({ kind, emptyText }: { kind: ListedKind; emptyText: string }) {
  const list = useEntries({ kind, pageSize: PAGE });
  return (
    <Loadable query={list}>
      {() =>
        list.data && list.data.items.length > 0 ? (
          <Stack gap="xl">
            {list.data.items.map((item) => (
              <Paper key={item.id} withBorder radius="md" p={{ base: 'md', sm: 'xl' }}>
                <Article item={item} />
              </Paper>
            ))}
          </Stack>
        ) : emptyText ? (
          <Empty text={emptyText} />
        ) : null
      }
    </Loadable>
  );
}

/** /settingAbout and /about: the operator's about pages. */
export function AboutPage() {
  const { t } = useTranslation('content');
  return (
    <ContentPage testId="about-page" title={t('about.title')}>
      <FullEntries kind="about" emptyText={t('about.empty')} />
    </ContentPage>
  );
}

/**
 * /security: the standing advice (what staff never do, the anti-phishing phrase) from the app's own
 * texts — so it is there even before the operator writes anything — then the operator's articles.
 */
export function SecurityPage() {
  const { t } = useTranslation('content');
  return (
    <ContentPage testId="security-page" title={t('security.title')} lead={t('security.lead')}>
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }} data-testid="security-advice">
        <Stack gap="sm">
          <Title order={2} size="h4">
            {t('security.neverTitle')}
          </Title>
          <List spacing="xs">
            <List.Item>{t('security.never1')}</List.Item>
            <List.Item>{t('security.never2')}</List.Item>
            <List.Item>{t('security.never3')}</List.Item>
          </List>
          <Title order={2} size="h4" mt="sm">
            {t('security.phraseTitle')}
          </Title>
          <Text>{t('security.phraseText')}</Text>
          <Anchor component={Link} to="/setting" data-testid="security-phrase-link">
            {t('security.phraseLink')} →
          </Anchor>
        </Stack>
      </Paper>
      <FullEntries kind="security" emptyText="" />
    </ContentPage>
  );
}

/** /benefits: what the platform offers, each leading to its conditions. */
export function BenefitsPage() {
  const { t } = useTranslation('content');
  const list = useEntries({ kind: 'benefit', pageSize: PAGE_MAX });
  return (
    <ContentPage testId="benefits-page" title={t('benefits.title')} lead={t('benefits.lead')}>
      <Loadable query={list}>
        {() =>
          list.data && list.data.items.length > 0 ? (
            <EntryList
              items={list.data.items}
              href={(item) => `/benefitsDetail?id=${encodeURIComponent(item.id)}`}
            />
          ) : (
            <Empty text={t('benefits.empty')} />
          )
        }
      </Loadable>
    </ContentPage>
  );
}

function TextList() {
  const { t } = useTranslation('content');
  const list = useEntries({ kind: 'text', pageSize: PAGE_MAX });
  return (
    <ContentPage testId="text-page" title={t('text.title')}>
      <Loadable query={list}>
        {() =>
          list.data && list.data.items.length > 0 ? (
            <EntryList items={list.data.items} href={(item) => `/text?id=${encodeURIComponent(item.id)}`} />
          ) : (
            <Empty text={t('text.empty')} />
          )
        }
      </Loadable>
    </ContentPage>
  );
}

/** /text?id=: one generic text; without an id, the list of them. */
export function TextPage() {
  const { t } = useTranslation('content');
  const [params] = useSearchParams();
  if (params.get('id')) return <ArticleDetail back={{ to: '/text', label: t('back.text') }} />;
  return <TextList />;
}
