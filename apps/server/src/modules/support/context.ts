import type { SupportMessageData, SupportPrivateMessage } from '@bourse/protocol';
import type { Logger } from 'pino';
import type { Db, Tx } from '../../db/database.ts';
import type { AuditLog } from '../../http/staff.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Uploads } from '../uploads/index.ts';
import type { AgentRow, MessageRow } from './repo.ts';

/** What the parts of the support module share: the ports wiring.ts injects and the named limits. */

/** The staffed hours a fresh install starts with (demo content and the default; staff change them). */
export const DEFAULT_HOURS = 'Asia/Hong_Kong Mon-Fri 09:00-18:00';
/** The period the metrics cover unless asked (days). */
export const METRICS_DAYS_DEFAULT = 30;
/** Conversations in one queue page unless asked. */
export const QUEUE_PAGE_DEFAULT = 50;

export type StaffFacts = { name: string; active: boolean };

export type SupportDeps = {
  db: Db;
  clock: Clock;
  log: Logger;
  audit: AuditLog;
  /** Attachments: uploads of purpose `support`, claimed once; parties' and staff links. */
  uploads: Pick<Uploads, 'attach' | 'staffLinks' | 'partyLink'>;
  /** How long an attached file is kept (the document retention rule of modules/verification). */
  retainUntil: (at: Date) => Promise<Date>;
  /** Staff members by id (modules/staff): their name and whether the account is active. */
  staffMembers: (staffIds: readonly string[]) => Promise<Map<string, StaffFacts>>;
  /**
   * Whether the customer is a party to this C2C order (modules/c2c). Without the port a `c2c_order`
   * reference is kept as a free reference the customer typed, and the README says so.
   */
  c2cOrderOfCustomer?: (customerId: string, orderId: string) => Promise<boolean>;
  /** Live delivery on the customer's private channel `support_private:<uid>` (wiring.ts, the ws registry). */
  publish?: (customerId: string, message: SupportPrivateMessage) => void | Promise<void>;
  customerUids?: (customerIds: readonly string[]) => Promise<Map<string, string>>;
};

export type Q = Db | Tx;

/** A message as the customer sees it: never a note; a staff reply with its author's name and code. */
export function customerMessage(m: MessageRow, agents: ReadonlyMap<string, AgentRow>): SupportMessageData {
  const agent = m.staff_id ? agents.get(m.staff_id) : undefined;
  return {
    seq: m.seq,
    from: m.kind === 'staff' ? 'staff' : 'customer',
    body: m.body,
    file_id: m.file_id,
    staff: agent ? { name: agent.display_name, code: agent.code } : null,
    out_of_hours: m.out_of_hours,
    at: m.at.getTime(),
  };
}

export async function publishTo(deps: SupportDeps, customerId: string, message: SupportPrivateMessage) {
  if (!deps.publish) return;
  try {
    await deps.publish(customerId, message);
  } catch (error) {
    deps.log.warn({ err: error, conversation: message.conversation_id }, 'support live event not published');
  }
}

/** The median of a list (the mean of the middle two for an even count); null when empty. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const value =
    sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return Math.round(value * 10) / 10;
}
