import { ActionIcon, Indicator, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useToken } from '../../../lib/session.ts';
import { useNoticeLive, useUnreadCount } from '../api.ts';

/** The bell is drawn here (24×24, currentColor), decorative: the link carries the label. */
function BellIcon() {
  return (
    <svg
      width={20}
      height={20}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
      <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
    </svg>
  );
}

/** The header's bell (signed in only): the unread count as a badge, live from the websocket; opens `/notice`. */
export function NoticeBell() {
  const token = useToken();
  if (!token) return null;
  return <SignedInBell />;
}

function SignedInBell() {
  const { t } = useTranslation('notice');
  useNoticeLive();
  const unread = useUnreadCount().data?.unread ?? 0;
  const label = unread > 0 ? t('bellUnread', { count: unread }) : t('bell');
  return (
    <Tooltip label={label} withArrow>
      <Indicator
        label={unread > 99 ? '99+' : String(unread)}
        size={16}
        color="red"
        disabled={unread === 0}
        offset={6}
        data-testid="notice-bell-badge"
        data-unread={unread}
      >
        <ActionIcon
          component={Link}
          to="/notice"
          variant="subtle"
          color="gray"
          size="lg"
          aria-label={label}
          data-testid="notice-bell"
        >
          <BellIcon />
        </ActionIcon>
      </Indicator>
    </Tooltip>
  );
}
