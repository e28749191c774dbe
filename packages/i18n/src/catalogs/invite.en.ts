/** The `invite` namespace (the customer app's `/invite`: invitation code, link, QR, referral income), English. */
export const inviteEn = {
  title: 'Invite friends',
  lead: 'Share your code or link. When a friend you invited trades spot, you receive a share of the spot trading fees they actually paid.',
  code: 'Invitation code',
  link: 'Invitation link',
  copy: 'Copy {{what}}',
  copied: 'Copied',
  qrAlt: 'QR code of your invitation link {{url}}',
  qrFailed: 'The QR code could not be drawn; copy the link instead.',
  notOffered:
    'Referral income is not offered at present (the programme is off or this jurisdiction does not allow it). Friends can still register with your code.',
  levels: {
    title: 'Your invitations',
    level: 'Level {{level}}',
    share: '{{share}} % of fees paid',
    noShare: 'No share',
    headcount: 'Friends',
    income: 'Income',
    none: 'None yet',
    total: 'Total income',
  },
  rules: {
    title: 'How it works',
    fees: 'You only ever receive a share of spot trading fees your friends actually paid (contracts, options and other products pay no referral income). Nothing is paid for a sign-up alone, and the share is never more than the fee.',
    depthOne: 'Paid on one level: friends who registered with your code.',
    depthMany:
      'Paid on {{levels}} levels: friends who registered with your code, and the friends they invite, down to level {{levels}}.',
    shares: 'Shares per level: {{shares}}.',
    shareItem: 'level {{level}} {{share}} %',
    attribution:
      'A friend counts as yours only when they register with your code or link; it cannot be added later.',
    exclusions:
      'No income from your own second accounts or from linked accounts: the same device, or shared withdrawal addresses, bank cards or wallets. Such pairs are reviewed by our staff.',
    paid: 'Income is paid into your spot account shortly after each fee, and every line names the fee it came from.',
  },
  invitees: {
    title: 'Invited friends',
    uid: 'UID',
    name: 'Name',
    contact: 'Phone or e-mail',
    registered: 'Registered',
    level: 'Level',
    empty: 'No one has registered with your code yet.',
  },
  income: {
    title: 'Income',
    id: 'ID',
    amount: 'Amount',
    remark: 'Remark',
    time: 'Time',
    empty: 'No referral income yet.',
  },
  pager: { prev: 'Previous', next: 'Next', page: 'Page {{page}} of {{pages}}' },
  error: 'Could not load this: {{message}}',
  retry: 'Try again',
};
