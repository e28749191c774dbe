import type { Db } from '../../db/database.ts';
import type { AuditLog } from '../../http/staff.ts';
import type { Clock } from '../../lib/clock.ts';

/** What the agreements module needs: its database, the clock that decides what is in force, the audit log. */
export type AgreementsDeps = { db: Db; clock: Clock; audit: AuditLog };

/** Where an acceptance came from, as far as the request tells. */
export type AcceptanceMeta = { ip: string | null; userAgent: string | null };
