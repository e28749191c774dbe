import type { Generated } from 'kysely';

export type NotifyTables = {
  notify_outbox: {
    id: string;
    channel: 'email' | 'sms';
    recipient: string;
    subject: string;
    body: string;
    /** 'outbox' when no sender is configured; 'sent' or 'failed' through SMTP. */
    delivery: 'outbox' | 'sent' | 'failed';
    created_at: Generated<Date>;
  };
};
