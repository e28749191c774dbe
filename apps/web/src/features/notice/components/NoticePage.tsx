import type { NoticeData } from '@bourse/protocol';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Container,
  Group,
  Loader,
  Stack,
  Tabs,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../../lib/format.ts';
import { useLang } from '../../../lib/i18n.ts';
import { useToken } from '../../../lib/session.ts';
import { type NoticeTab, useNotices, useReadAll, useReadNotice } from '../api.ts';
import { PrefsSection } from './PrefsSection.tsx';

export const NOTICE_PAGE_SIZE = 20;
const TABS: Array<[NoticeTab, 'tabs.all' | 'tabs.messages' | 'tabs.announcements']> = [
  ['all', 'tabs.all'],
  ['message', 'tabs.messages'],
  ['announcement', 'tabs.announcements'],
];

/** `/notice`: my messages and the announcements, read and unread, and which kinds also go by e-mail. */
export function NoticePage() {
  const { t } = useTranslation('notice');
  const token = useToken();
  return (
    <Container size={1200} py="lg" px="md" data-testid="notice-page">
      <Stack gap="lg">
        <Title order={2}>{t('title')}</Title>
        {token ? (
          <>
            <NoticeList />
            <PrefsSection />
          </>
        ) : (
          <Group data-testid="notice-login">
            <Text>{t('login')}</Text>
            <Button component={Link} to="/login">
              {t('loginButton')}
            </Button>
          </Group>
        )}
      </Stack>
    </Container>
  );
}

function NoticeList() {
  const { t } = useTranslation('notice');
  const [tab, setTab] = useState<NoticeTab>('all');
  const [size, setSize] = useState(NOTICE_PAGE_SIZE);
  const notices = useNotices(tab, size);
  const readAll = useReadAll();
  const page = notices.data;
  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap">
        <Tabs value={tab} onChange={(v) => setTab((v as NoticeTab) ?? 'all')}>
          <Tabs.List>
            {TABS.map(([value, label]) => (
              <Tabs.Tab key={value} value={value} data-testid={`notice-tab-${value}`}>
                {t(label)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>
        <Button
          variant="default"
          size="xs"
          onClick={() => readAll.mutate()}
          loading={readAll.isPending}
          data-testid="notice-read-all"
        >
          {t('markAll')}
        </Button>
      </Group>
      {notices.isPending ? (
        <Group justify="center" py="xl" data-testid="notice-loading">
          <Loader size="sm" />
        </Group>
      ) : notices.isError ? (
        <Alert color="red" data-testid="notice-error">
          <Group gap="sm">
            <Text size="sm">{t('failed')}</Text>
            <Button
              size="xs"
              variant="default"
              onClick={() => void notices.refetch()}
              data-testid="notice-retry"
            >
              {t('retry')}
            </Button>
          </Group>
        </Alert>
      ) : page && page.items.length === 0 ? (
        <Text c="dimmed" py="xl" ta="center" data-testid="notice-empty">
          {t('empty')}
        </Text>
      ) : (
        <Stack gap="xs" data-testid="notice-list">
          {page?.items.map((n) => (
            <NoticeItem key={n.id} notice={n} />
          ))}
          {page && page.total > page.items.length ? (
            <Button
              variant="subtle"
              onClick={() => setSize((s) => s + NOTICE_PAGE_SIZE)}
              data-testid="notice-more"
            >
              {t('more')}
            </Button>
          ) : null}
        </Stack>
      )}
    </Stack>
  );
}

/** One notice: title, kind, time and an unread mark; opening it shows the text and marks it read. */
function NoticeItem({ notice }: { notice: NoticeData }) {
  const { t } = useTranslation('notice');
  const lang = useLang();
  const [open, setOpen] = useState(false);
  const read = useReadNotice();
  const toggle = () => {
    setOpen((o) => !o);
    if (!notice.read && !open) read.mutate(notice.id);
  };
  return (
    <Card
      withBorder
      padding="sm"
      data-testid="notice-item"
      data-id={notice.id}
      data-read={notice.read ? 'true' : 'false'}
      style={{ borderLeftWidth: notice.read ? undefined : 4 }}
    >
      <UnstyledButton onClick={toggle} aria-expanded={open} w="100%" data-testid="notice-open">
        <Group justify="space-between" wrap="nowrap" gap="sm">
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Group gap="xs" wrap="wrap">
              {notice.read ? null : (
                <Badge color="red" size="xs" data-testid="notice-unread">
                  {t('unread')}
                </Badge>
              )}
              <Badge variant="light" size="xs" data-testid="notice-kind">
                {t(`kind.${notice.kind}`)}
              </Badge>
            </Group>
            <Text
              fw={notice.read ? 400 : 700}
              style={{ overflowWrap: 'anywhere' }}
              data-testid="notice-title"
            >
              {notice.title}
            </Text>
          </Stack>
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }} data-testid="notice-time">
            {formatDateTime(notice.created_at, lang)}
          </Text>
        </Group>
      </UnstyledButton>
      {open ? (
        <Stack gap="xs" mt="sm" data-testid="notice-body">
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {notice.body}
          </Text>
          {notice.link ? <NoticeLink link={notice.link} /> : null}
        </Stack>
      ) : null}
    </Card>
  );
}

function NoticeLink({ link }: { link: string }) {
  const { t } = useTranslation('notice');
  if (link.startsWith('/'))
    return (
      <Anchor component={Link} to={link} size="sm" data-testid="notice-link">
        {t('open')}
      </Anchor>
    );
  return (
    <Anchor href={link} target="_blank" rel="noopener noreferrer" size="sm" data-testid="notice-link">
      {t('open')}
    </Anchor>
  );
}
