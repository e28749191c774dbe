import type {
  AdminLaunchpadActionBody,
  AdminLaunchpadProjectBody,
  AdminLaunchpadProjectData,
  LaunchpadSubscriptionState,
} from '@bourse/protocol';
import { LAUNCHPAD_SUBSCRIPTION_STATES } from '@bourse/protocol';
import { inTransaction } from '../../db/database.ts';
import { refuse } from '../../http/refusal.ts';
import type { StaffContext } from '../../http/staff.ts';
import { newId } from '../../lib/ids.ts';
import { escrowAccount, type LaunchpadDeps, listCoin, projectData, supplyAccount } from './context.ts';
import { failProject, usdt } from './job.ts';
import type { ProjectRow } from './repo.ts';
import * as repo from './repo.ts';
import { projectFigures, USDT } from './rules.ts';

/**
 * The back office's side of a project (README.md, "Projects"): create a draft, announce it (every
 * rule fixed and public; the issuer's coins enter the project's supply account), record an issuer's
 * withdrawal (the project fails and refunds begin), pay the escrow to the issuer after listing.
 * Each is audited with the staff member's reason. Nothing here sets a quantity or an allocation.
 */

export async function createProject(deps: LaunchpadDeps, staff: StaffContext, b: AdminLaunchpadProjectBody) {
  const now = deps.clock.now();
  const figures = projectFigures(b, now);
  const id = newId('lpp', now.getTime());
  const row: ProjectRow = {
    id,
    code: id.slice(4).toLowerCase(),
    coin: b.coin,
    coin_scale: b.coin_scale,
    names: b.names,
    issuer: b.issuer,
    descriptions: b.descriptions,
    risk_warnings: b.risk_warnings,
    whitepaper_url: b.whitepaper_url,
    mode: b.mode,
    ...figures,
    lockup_days: b.lockup_days,
    refund_hours: b.refund_hours,
    min_tier: b.min_tier,
    min_rating: b.min_rating,
    jurisdictions: [...new Set(b.jurisdictions)],
    state: 'draft',
    subscribed_lots: '0',
    subscribers: 0,
    next_seq: 0,
    failure_reason: null,
    failed_at: null,
    refund_deadline_at: null,
    announced_at: null,
    salt: null,
    allocation: null,
    paid_out_units: '0',
    market_symbol: null,
    market_opened_at: null,
    created_at: now,
    created_by: staff.staffId,
  };
  await inTransaction(deps.db, async (tx) => {
    const taken = await tx
      .selectFrom('launchpad_project')
      .select('id')
      .where('coin', '=', b.coin)
      .executeTakeFirst();
    if (taken) refuse('LAUNCHPAD_COIN_TAKEN', { coin: b.coin });
    await repo.insertProject(tx, row);
    await deps.audit.record(tx, {
      actorId: staff.staffId,
      action: 'launchpad.project.create',
      targetType: 'launchpad_project',
      targetId: id,
      after: { ...row, created_at: now.toISOString() },
      reason: b.reason,
    });
  });
  listCoin(row);
  return row;
}

async function platformUnits(
  deps: LaunchpadDeps,
  account: ReturnType<typeof escrowAccount>,
  currency: string,
) {
  const rows = await deps.ledger.platformBalances(deps.db, account as never);
  return rows.find((r) => r.currency === currency)?.availableUnits ?? 0n;
}

export async function act(
  deps: LaunchpadDeps,
  staff: StaffContext,
  projectId: string,
  b: AdminLaunchpadActionBody,
) {
  return inTransaction(deps.db, async (tx) => {
    const p = await repo.findProject(tx, projectId, { lock: true });
    if (!p) refuse('NOT_FOUND');
    listCoin(p);
    const now = deps.clock.now();
    const refused = () => refuse('LAUNCHPAD_ACTION_REFUSED', { from: p.state, action: b.action });
    let detail: Record<string, string> = {};
    if (b.action === 'announce') {
      if (p.state !== 'draft') refused();
      if (now >= p.opens_at) refuse('LAUNCHPAD_PROJECT_INVALID', { field: 'opens_at' });
      const units = BigInt(p.supply_lots) * BigInt(p.lot_units);
      await deps.ledger.post(tx, {
        reason: 'launchpad.issue',
        reference: { type: 'launchpad_project', id: p.id },
        idempotencyKey: `launchpad:issue:${p.id}`,
        actorId: staff.staffId,
        postings: [
          {
            account: { book: 'real', platform: 'launchpad_issuance' },
            currency: p.coin,
            amountUnits: -units,
          },
          { account: supplyAccount(p.code), currency: p.coin, amountUnits: units },
        ],
      });
      await repo.updateProject(tx, p.id, { state: 'announced', announced_at: now });
    } else if (b.action === 'withdraw') {
      if (!['announced', 'open', 'closed'].includes(p.state)) refused();
      await failProject(deps, tx, p, 'issuer_withdrew');
    } else {
      if (p.state !== 'distributed' || now < p.listing_at) refused();
      const rows = await deps.ledger.platformBalances(tx, escrowAccount(p.code) as never);
      const held = rows.find((r) => r.currency === USDT.code)?.availableUnits ?? 0n;
      if (held <= 0n) refused();
      await deps.ledger.post(tx, {
        reason: 'launchpad.pay_issuer',
        reference: { type: 'launchpad_project', id: p.id },
        idempotencyKey: `launchpad:pay-issuer:${p.id}:${p.paid_out_units}`,
        actorId: staff.staffId,
        postings: [
          { account: escrowAccount(p.code), currency: USDT.code, amountUnits: -held },
          {
            account: { book: 'real', platform: 'launchpad_payouts' },
            currency: USDT.code,
            amountUnits: held,
          },
        ],
      });
      await repo.updateProject(tx, p.id, { paid_out_units: (BigInt(p.paid_out_units) + held).toString() });
      detail = { amount: usdt(held), currency: USDT.code };
    }
    await deps.audit.record(tx, {
      actorId: staff.staffId,
      action: `launchpad.project.${b.action}`,
      targetType: 'launchpad_project',
      targetId: p.id,
      before: { state: p.state },
      after: { action: b.action, ...detail },
      reason: b.reason,
    });
    return p.id;
  });
}

/** Every project with its back-office figures: escrow, paid out, fees, subscriptions per state. */
export async function adminProjects(deps: LaunchpadDeps): Promise<{ items: AdminLaunchpadProjectData[] }> {
  const rows = await repo.projects(deps.db);
  const ids = rows.map((p) => p.id);
  const [counts, money] = await Promise.all([repo.counts(deps.db, ids), repo.moneyTotals(deps.db, ids)]);
  const items: AdminLaunchpadProjectData[] = [];
  for (const p of rows) {
    listCoin(p);
    const { name: _n, description: _d, risk_warning: _r, issuer: _i, ...web } = projectData(p, 'en');
    const perState = Object.fromEntries(LAUNCHPAD_SUBSCRIPTION_STATES.map((s) => [s, 0])) as Record<
      LaunchpadSubscriptionState,
      number
    >;
    for (const c of counts) if (c.project_id === p.id) perState[c.state] = Number(c.n);
    const m = money.find((x) => x.project_id === p.id);
    items.push({
      ...web,
      names: p.names,
      descriptions: p.descriptions,
      risk_warnings: p.risk_warnings,
      issuer: p.issuer,
      escrow: usdt(await platformUnits(deps, escrowAccount(p.code), USDT.code)),
      paid_out: usdt(BigInt(p.paid_out_units)),
      fees: usdt(BigInt(m?.fees ?? '0')),
      counts: perState,
      created_at: p.created_at.getTime(),
      created_by: p.created_by,
    });
  }
  return { items };
}
