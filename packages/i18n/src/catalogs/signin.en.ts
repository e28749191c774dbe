/** The `signin` namespace: the seven-day sign-in reward (`/signRule`), English. */
export const signinEn = {
  title: 'Daily sign-in reward',
  intro:
    'Sign in once a day. Each day of a seven-day streak pays the amount shown as promotional credit into your spot account.',
  state: {
    on: 'The programme is running.',
    off: 'The sign-in reward is switched off at the moment.',
    budget_empty:
      'The marketing budget for sign-in rewards is used up: nothing can be paid until the operator tops it up.',
    profile_forbids:
      'Sign-in rewards are not offered here: the platform’s jurisdiction profile does not allow promotional incentives.',
  },
  budget: {
    label: 'Budget remaining',
    hint: 'Rewards are paid from the operator’s marketing budget ({{account}}), never from other customers.',
  },
  strip: {
    title: 'Your week',
    day: 'Day {{n}}',
    today: 'Today',
    signed: 'Signed',
    next: 'Next',
  },
  condition: {
    line: 'Condition: {{text}}',
    label: 'Condition',
    none: 'No condition',
  },
  action: {
    signIn: 'Sign in for today',
    signedToday: 'Signed in today. The next day starts at {{time}} your time.',
    paid: 'Day {{streak}}: {{amount}} {{currency}} paid into your spot account.',
    login: 'Log in to sign in',
    streak: 'Days in a row: {{n}}',
    todayEarns: 'Today pays {{amount}} {{currency}} (day {{n}}).',
  },
  verification: {
    needed: 'Primary identity verification is needed before rewards are paid.',
    verify: 'Verify now',
  },
  demo: 'Demo account: rewards are paid in virtual money in the demo book.',
  rules: {
    title: 'Rules',
    timeZone: 'A day runs from midnight to midnight in {{zone}}.',
    localBoundary: 'Today ends at {{time}} in your local time.',
    cycle:
      'Sign in on consecutive days to go from day 1 to day 7; after day 7 the cycle starts again at day 1.',
    missed: 'Missing a day resets your streak to day 1.',
    once: 'One reward per day, however often you sign in.',
    promo: 'Rewards are promotional credit; any condition is stated beside the amount.',
    budget: 'Rewards are paid only while the marketing budget lasts; what remains is shown on this page.',
    verificationNone: 'No identity verification is needed.',
    verificationPrimary: 'Primary identity verification is needed.',
  },
  entry: {
    label: 'Daily sign-in',
    hint: 'Seven-day sign-in reward and its rules',
  },
};
