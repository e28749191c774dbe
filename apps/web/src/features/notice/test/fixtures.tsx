import type { NoticeData, NoticePrefsData } from '@bourse/protocol';
import { NOTICE_KINDS, NOTICE_KINDS_SECURITY } from '@bourse/protocol';
import { type Handler, mockApi } from '../../../shared/testing/api.ts';
import { renderScreens, type ScreenOptions } from '../../../shared/testing/screens.tsx';
import { NoticeBell } from '../components/NoticeBell.tsx';
import { NoticePage } from '../components/NoticePage.tsx';

export { type Viewport, watchMissingKeys } from '../../../shared/testing/screens.tsx';

export const NOW = Date.UTC(2026, 10, 27, 8, 0);

export function notice(over: Partial<NoticeData> = {}): NoticeData {
  return {
    id: 'obx_1',
    source: 'message',
    kind: 'withdrawal',
    title: 'Withdrawal approved',
    body: 'Your withdrawal of 10 USDT was approved.',
    link: '/withdrawRecord',
    read: false,
    created_at: NOW,
    ...over,
  };
}

export const ANNOUNCEMENT = notice({
  id: 'ann_1',
  source: 'announcement',
  kind: 'announcement',
  title: 'Maintenance tonight',
  body: 'Trading pauses at 02:00.',
  link: null,
  read: true,
  created_at: NOW - 3_600_000,
});

export function prefs(off: string[] = []): NoticePrefsData {
  return {
    items: NOTICE_KINDS.map((kind) => {
      const locked = NOTICE_KINDS_SECURITY.includes(kind);
      return { kind, locked, email: locked || !off.includes(kind) };
    }),
  };
}

/** The notice calls answered from a small in-memory inbox that reads behave on. */
export function noticeApi(over: Record<string, Handler> = {}) {
  const items = [notice(), ANNOUNCEMENT];
  const unread = () => items.filter((i) => !i.read).length;
  let off: string[] = [];
  return mockApi({
    getNotices: (call) => {
      const kind = call.params.kind;
      const list = items.filter((i) => !kind || i.source === kind);
      return { total: list.length, page: 1, page_size: 20, items: list };
    },
    getUnreadCount: () => ({ unread: unread() }),
    readNotice: (call) => {
      const found = items.find((i) => i.id === call.params.id);
      if (found) found.read = true;
      return { unread: unread() };
    },
    readAllNotices: () => {
      for (const i of items) i.read = true;
      return { unread: 0 };
    },
    getNoticePrefs: () => prefs(off),
    setNoticePrefs: (call) => {
      off =
        call.params.email === '0'
          ? [...off, call.params.kind ?? '']
          : off.filter((k) => k !== call.params.kind);
      return prefs(off);
    },
    ...over,
  });
}

/** `/notice` with the header bell beside it, in the shared screen harness. */
export function renderNotice(options: Partial<ScreenOptions> = {}) {
  return renderScreens(
    {
      '/notice': (
        <>
          <NoticeBell />
          <NoticePage />
        </>
      ),
    },
    { route: '/notice', ...options },
  );
}
