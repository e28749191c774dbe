/** The `adminNotice` namespace (back office: announcements to every customer), English: the source of its keys. */
export const adminNoticeEn = {
  title: 'Announcements',
  intro:
    'Announcements reach every customer in their language, in the app and live. Messages to one customer come only from the platform’s events.',
  create: 'New announcement',
  empty: 'No announcements yet.',
  failed: 'This could not be loaded.',
  retry: 'Try again',
  columns: {
    title: 'Title',
    state: 'State',
    publishAt: 'Publish at',
    created: 'Created',
    actions: 'Actions',
  },
  state: {
    draft: 'Draft',
    published: 'Published',
    scheduled: 'Scheduled',
    unpublished: 'Unpublished',
  },
  lang: { en: 'English', zh: 'Simplified Chinese', ft: 'Traditional Chinese' },
  form: {
    title: 'Title ({{lang}})',
    body: 'Text ({{lang}})',
    link: 'Link (an app path such as /market, or an https address; optional)',
    preview: 'Preview',
    save: 'Save draft',
    cancel: 'Cancel',
    allRequired: 'Write the title and the text in all three languages.',
  },
  publish: {
    action: 'Publish',
    title: 'Publish this announcement',
    now: 'Now',
    at: 'At a time (your local time)',
    when: 'Publish at',
    reason: 'Reason (kept in the audit log)',
    confirm: 'Publish',
  },
  edit: {
    action: 'Edit',
    title: 'Edit this announcement',
    reason: 'Reason for the change (kept in the audit log)',
    reasonRequired: 'Say why it changes.',
    save: 'Save changes',
    onlyUnseen:
      'Only drafts and announcements scheduled for later can be changed; once customers have seen one, take it down and publish a new one.',
  },
  unpublish: {
    action: 'Unpublish',
    title: 'Take this announcement down',
    reason: 'Reason (kept in the audit log)',
    confirm: 'Unpublish',
  },
  done: 'Done',
};
