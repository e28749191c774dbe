import type { HelpCategoryData } from '@bourse/protocol';
import {
  Button,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useEntries } from '../api/entries.ts';
import { useHelpCategories } from '../api/helpCategories.ts';
import { useContentSearch } from '../api/search.ts';
import { ContentPage, Empty, EntryList, entryHref, Loadable } from './parts.tsx';

const PAGE_MAX = 50;
const helpHref = (id: string) => `/helpDetail?id=${encodeURIComponent(id)}`;

function Topics(props: {
  topics: HelpCategoryData[];
  selected: string | null;
  onSelect: (id: string) => void;
}) {
  const { t } = useTranslation('content');
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 4 }} spacing="sm" data-testid="help-categories">
      {props.topics.map((topic) => {
        const active = topic.id === props.selected;
        return (
          <UnstyledButton
            key={topic.id}
            onClick={() => props.onSelect(topic.id)}
            data-testid="help-category"
            data-id={topic.id}
            aria-pressed={active}
            p="md"
            style={{
              borderRadius: 'var(--mantine-radius-md)',
              border: `1px solid ${active ? 'var(--mantine-primary-color-filled)' : 'var(--mantine-color-default-border)'}`,
              background: active ? 'var(--mantine-primary-color-light)' : undefined,
            }}
          >
            <Text fw={600}>{topic.name}</Text>
            <Text size="xs" c="dimmed">
              {t('help.articles', { count: topic.articles })}
            </Text>
          </UnstyledButton>
        );
      })}
    </SimpleGrid>
  );
}

function TopicArticles({ category }: { category: string }) {
  const { t } = useTranslation('content');
  const list = useEntries({ kind: 'help', category, pageSize: PAGE_MAX });
  return (
    <Loadable query={list}>
      {() =>
        list.data && list.data.items.length > 0 ? (
          <EntryList items={list.data.items} href={(item) => helpHref(item.id)} />
        ) : (
          <Empty text={t('help.empty')} />
        )
      }
    </Loadable>
  );
}

function SearchResults({ q }: { q: string }) {
  const { t } = useTranslation('content');
  const found = useContentSearch(q);
  return (
    <Stack gap="sm" data-testid="help-results">
      <Title order={2} size="h4">
        {t('help.results', { q })}
      </Title>
      <Loadable query={found}>
        {() =>
          found.data && found.data.items.length > 0 ? (
            <EntryList items={found.data.items} href={entryHref} />
          ) : (
            <Empty text={t('help.noResults', { q })} />
          )
        }
      </Loadable>
    </Stack>
  );
}

/** /settingHelp and /help: search, the topics, and the chosen topic's articles (`?category=`, `?q=`). */
export function HelpPage() {
  const { t } = useTranslation('content');
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const [draft, setDraft] = useState(q);
  const topics = useHelpCategories();
  const selected = params.get('category') ?? topics.data?.[0]?.id ?? null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = draft.trim();
    setParams(text ? { q: text } : {});
  };
  return (
    <ContentPage testId="help-page" title={t('help.title')} lead={t('help.lead')}>
      <form onSubmit={submit}>
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            flex={1}
            label={t('help.searchLabel')}
            placeholder={t('help.searchPlaceholder')}
            value={draft}
            maxLength={64}
            onChange={(event) => setDraft(event.currentTarget.value)}
            data-testid="help-search"
          />
          <Button type="submit" data-testid="help-search-submit">
            {t('help.search')}
          </Button>
          {q ? (
            <Button
              variant="subtle"
              onClick={() => {
                setDraft('');
                setParams({});
              }}
            >
              {t('help.clear')}
            </Button>
          ) : null}
        </Group>
      </form>
      {q ? (
        <SearchResults q={q} />
      ) : (
        <Stack gap="md">
          <Title order={2} size="h4">
            {t('help.topics')}
          </Title>
          <Loadable query={topics}>
            {() =>
              topics.data && topics.data.length > 0 && selected ? (
                <Stack gap="md">
                  <Topics
                    topics={topics.data}
                    selected={selected}
                    onSelect={(id) => setParams({ category: id })}
                  />
                  <TopicArticles category={selected} />
                </Stack>
              ) : (
                <Empty text={t('help.noTopics')} />
              )
            }
          </Loadable>
        </Stack>
      )}
      <Paper withBorder radius="md" p="md" bg="var(--mantine-color-default-hover)">
        <Text size="sm">{t('help.contact')}</Text>
      </Paper>
    </ContentPage>
  );
}
