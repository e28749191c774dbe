import { sql } from 'kysely';
import type { Db, Tx } from '../../db/database.ts';

/**
 * What the referral module (modules/referral) may know of invitations, read here because the
 * invitation (`invited_by`, fixed at registration) is an accounts fact: the chain of inviters above
 * a customer, the invitees below one (masked, never a full name, phone or e-mail), and whether two
 * customers have signed in from the same device. wiring.ts passes these as ports.
 */
type Q = Db | Tx;

/** The invitation chain's hard limit: the deepest programme any profile allows (packages/risk). */
const CHAIN_MAX = 4;

/** The customer's inviters, nearest first (level 1 = who invited them), at most `depth` of them. */
export async function inviterChain(q: Q, customerId: string, depth: number): Promise<string[]> {
  const chain: string[] = [];
  const seen = new Set([customerId]);
  let current = customerId;
  for (let i = 0; i < Math.min(depth, CHAIN_MAX); i++) {
    const row = await q
      .selectFrom('accounts_customer')
      .select('invited_by')
      .where('id', '=', current)
      .executeTakeFirst();
    const next = row?.invited_by ?? null;
    // A chain cannot loop (the inviter exists before the invitee), but a loop must never pay twice.
    if (!next || seen.has(next)) break;
    chain.push(next);
    seen.add(next);
    current = next;
  }
  return chain;
}

/** A's invitation code. */
export async function invitationCodeOf(q: Q, customerId: string): Promise<string | null> {
  const row = await q
    .selectFrom('accounts_customer')
    .select('invitation_code')
    .where('id', '=', customerId)
    .executeTakeFirst();
  return row?.invitation_code ?? null;
}

/** "A***" — the first character of a name and three stars; empty stays empty. */
export function maskName(name: string | null): string {
  if (!name) return '';
  return `${[...name][0]}***`;
}

/** "al***@example.com" or "+44***3456": enough to recognise a friend, never enough to reach them. */
export function maskContact(email: string | null, phone: string | null): string {
  if (email) {
    const [local = '', domain = ''] = email.split('@');
    return `${local.slice(0, Math.min(2, Math.max(1, local.length - 1)))}***@${domain}`;
  }
  if (phone) return phone.length > 7 ? `${phone.slice(0, 3)}***${phone.slice(-4)}` : '***';
  return '';
}

export type InviteeRow = {
  id: string;
  uid: string;
  name: string;
  contact: string;
  created_at: Date;
  level: number;
};

/** The invitees of a customer down to `depth` levels (recursive on `invited_by`), as SQL. */
function inviteesCte(customerId: string, depth: number) {
  return sql`
    with recursive tree (id, level) as (
      select id, 1 from accounts_customer where invited_by = ${customerId} and not is_demo
      union all
      select c.id, t.level + 1 from accounts_customer c join tree t on c.invited_by = t.id
      where t.level < ${Math.min(depth, CHAIN_MAX)} and not c.is_demo
    )`;
}

/** Headcount per level (1…depth), levels with nobody left out. */
export async function inviteeCounts(q: Q, customerId: string, depth: number): Promise<Map<number, number>> {
  if (depth < 1) return new Map();
  const rows = await sql<{ level: number; n: string }>`
    ${inviteesCte(customerId, depth)}
    select level, count(*)::text as n from tree group by level`.execute(q);
  return new Map(rows.rows.map((r) => [Number(r.level), Number(r.n)]));
}

/** One page of invitees, newest first; `level` narrows to one level. Names and contacts masked. */
export async function inviteesPage(
  q: Q,
  input: { customerId: string; depth: number; level?: number; offset: number; limit: number },
): Promise<{ total: number; rows: InviteeRow[] }> {
  if (input.depth < 1) return { total: 0, rows: [] };
  const levelFilter = input.level ? sql`where t.level = ${input.level}` : sql``;
  const counted = await sql<{ n: string }>`
    ${inviteesCte(input.customerId, input.depth)}
    select count(*)::text as n from tree t ${levelFilter}`.execute(q);
  const rows = await sql<{
    id: string;
    uid: string;
    name: string | null;
    email: string | null;
    phone: string | null;
    created_at: Date;
    level: number;
  }>`
    ${inviteesCte(input.customerId, input.depth)}
    select c.id, c.uid, c.name, c.email, c.phone, c.created_at, t.level
    from tree t join accounts_customer c on c.id = t.id ${levelFilter}
    order by c.created_at desc, c.id desc
    limit ${input.limit} offset ${input.offset}`.execute(q);
  return {
    total: Number(counted.rows[0]?.n ?? 0),
    rows: rows.rows.map((r) => ({
      id: r.id,
      uid: r.uid,
      name: maskName(r.name),
      contact: maskContact(r.email, r.phone),
      created_at: r.created_at,
      level: Number(r.level),
    })),
  };
}

/**
 * Whether two customers have signed in from the same device: a session of each with the same
 * address and the same browser (user agent) — what accounts knows of a device (the signed-in
 * devices list). A description for the flag ("127.0.0.1 · Mozilla/5.0 …", cut), or null.
 */
export async function sharedDevice(q: Q, a: string, b: string): Promise<string | null> {
  if (a === b) return 'same customer';
  const row = await q
    .selectFrom('accounts_session as s1')
    .innerJoin('accounts_session as s2', (join) =>
      join.onRef('s1.ip', '=', 's2.ip').onRef('s1.user_agent', '=', 's2.user_agent'),
    )
    .select(['s1.ip', 's1.user_agent'])
    .where('s1.customer_id', '=', a)
    .where('s2.customer_id', '=', b)
    .limit(1)
    .executeTakeFirst();
  return row ? `${row.ip} · ${row.user_agent}`.slice(0, 200) : null;
}
