/** The `content` namespace: the customer app's help centre, news flash, about, security, benefits and texts. */
export const contentEn = {
  state: {
    error: 'This page could not be loaded.',
    retry: 'Try again',
    notFound: 'This article does not exist or is no longer published.',
  },
  kind: {
    news: 'News',
    announcement: 'Announcement',
    help: 'Help',
    about: 'About',
    security: 'Security',
    benefit: 'Benefit',
    text: 'Information',
  },
  published: 'Published {{date}}',
  open: 'Open',
  back: {
    news: 'Back to the news flash',
    help: 'Back to the help centre',
    benefits: 'Back to benefits',
    text: 'Back to information',
  },
  news: {
    title: 'News flash',
    lead: 'News and announcements from the operator of this platform.',
    empty: 'No news yet.',
    all: 'All',
    more: 'Show more',
  },
  help: {
    title: 'Help centre',
    lead: 'Answers to common questions. Search, or pick a topic.',
    searchLabel: 'Search the help centre',
    searchPlaceholder: 'For example: withdrawal, verification',
    search: 'Search',
    clear: 'Clear',
    topics: 'Topics',
    articles_one: '{{count}} article',
    articles_other: '{{count}} articles',
    noTopics: 'The help centre has no topics yet.',
    empty: 'No articles in this topic yet.',
    results: 'Results for “{{q}}”',
    noResults: 'Nothing found for “{{q}}”. Try fewer or different words.',
    contact:
      'Still need help? Write to customer service inside the app — we never contact you through outside chat apps.',
  },
  about: {
    title: 'About us',
    empty: 'The operator has not written this page yet.',
  },
  security: {
    title: 'Security advice',
    lead: 'How to recognise our staff and our messages, and keep your account safe.',
    neverTitle: 'Our staff will never',
    never1: 'ask for your password, a verification code or an authenticator code',
    never2: 'ask you to transfer money to any account or address',
    never3: 'contact you through outside chat apps or personal accounts',
    phraseTitle: 'Your anti-phishing phrase',
    phraseText:
      'Every e-mail we send you carries the phrase you chose. An e-mail without it is not from us: do not open its links.',
    phraseLink: 'Set my phrase in the security centre',
  },
  benefits: {
    title: 'Benefits',
    lead: 'What the platform offers its customers, with every condition stated.',
    empty: 'No benefits are offered at the moment.',
  },
  text: {
    title: 'Information',
    empty: 'No information has been published yet.',
  },
} as const;
