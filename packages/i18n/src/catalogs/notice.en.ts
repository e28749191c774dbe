/** The `notice` namespace (the customer's notices: messages, announcements, e-mail choices), English: the source of its keys. */
export const noticeEn = {
  title: 'Notices',
  tabs: {
    all: 'All',
    messages: 'Messages',
    announcements: 'Announcements',
  },
  markAll: 'Mark all as read',
  unread: 'Unread',
  read: 'Read',
  open: 'Go to the page',
  close: 'Close',
  empty: 'Nothing here yet.',
  failed: 'Your notices could not be loaded.',
  retry: 'Try again',
  login: 'Log in to see your notices.',
  loginButton: 'Log in',
  more: 'Show more',
  bell: 'Notices',
  bellUnread_one: 'Notices, {{count}} unread',
  bellUnread_other: 'Notices, {{count}} unread',
  kind: {
    security: 'Security',
    withdrawal: 'Withdrawal',
    deposit: 'Deposit',
    verification: 'Verification',
    loan: 'Loan',
    c2c: 'C2C',
    earn: 'Earn',
    launchpad: 'New coins',
    apikey: 'API keys',
    general: 'Account',
    announcement: 'Announcement',
  },
  prefs: {
    title: 'Also send by e-mail',
    intro:
      'Every notice is kept here. Choose which ones also go to your e-mail (or by SMS if you have no e-mail).',
    locked:
      'Security notices — sign-ins and password changes, withdrawals and API keys — always go by e-mail and cannot be turned off.',
    alwaysOn: 'Always on',
    saved: 'Saved',
  },
  official:
    'Official messages carry your anti-phishing phrase in e-mail. Staff never ask for your password, codes or a transfer.',
};
