import {
  type AdminDocumentDecision,
  type AdminVerificationDecideBody,
  type AdminVerificationDecideData,
  type AdminVerificationDetailData,
  type AdminVerificationQueueData,
  type AdminVerificationQueueRow,
  VERIFICATION_REASON_CODES,
  type VerificationFlag,
  type VerificationTier,
} from '@bourse/protocol';
import { inTransaction, isUniqueViolation, type Tx } from '../../db/database.ts';
import { refuse } from '../../http/refusal.ts';
import { foldName, type VerificationDeps } from './context.ts';
import { notifyDecision } from './notices.ts';
import * as repo from './repo.ts';
import type { DocumentStatus, SubmissionState } from './tables.ts';
import { customerData } from './view.ts';

/**
 * The staff side: the queue (oldest first, with the flags a reviewer needs), one submission beside
 * its documents (each link an audited view), and the decision — per document, with a reason code
 * from the catalogue — taken under a row lock, audited in the same transaction, told to the
 * customer after the commit. Four-eyes on the advanced tier when the setting is on.
 */

type Deps = VerificationDeps;

/** The flags of submissions, in a fixed number of queries for the whole page. */
async function flagsOf(
  deps: Deps,
  rows: readonly repo.SubmissionRow[],
): Promise<Map<string, VerificationFlag[]>> {
  const hashes = rows.flatMap((r) => (r.id_hash ? [r.id_hash] : []));
  const documents = await repo.documentsOf(
    deps.db,
    rows.map((r) => r.id),
  );
  const [sameId, sameImage, names] = await Promise.all([
    repo.sameIdHash(deps.db, hashes),
    deps.uploads.sameImageOwners(
      deps.db,
      documents.map((d) => d.file_id),
    ),
    repo.primaryNames(
      deps.db,
      rows.filter((r) => r.tier === 'primary').map((r) => r.customer_id),
    ),
  ]);
  const others = new Set([...sameId.map((s) => s.customer_id), ...[...sameImage.values()].flat()]);
  const who = await deps.customers([...others]);
  const uid = (id: string) => who.get(id)?.uid ?? id;
  const out = new Map<string, VerificationFlag[]>();
  for (const r of rows) {
    const flags: VerificationFlag[] = [];
    const idOwners = new Set(
      sameId
        .filter((s) => s.id_hash === r.id_hash && s.customer_id !== r.customer_id)
        .map((s) => s.customer_id),
    );
    for (const other of idOwners) flags.push({ code: 'duplicate_id_number', params: { uid: uid(other) } });
    const imageOwners = new Set(
      documents.filter((d) => d.submission_id === r.id).flatMap((d) => sameImage.get(d.file_id) ?? []),
    );
    for (const other of imageOwners) flags.push({ code: 'duplicate_image', params: { uid: uid(other) } });
    if (r.tier === 'primary' && r.real_name) {
      const earlier = names.filter(
        (n) =>
          n.customer_id === r.customer_id &&
          n.round < r.round &&
          n.real_name &&
          foldName(n.real_name) !== foldName(r.real_name ?? ''),
      );
      const last = earlier.at(-1);
      if (last?.real_name) flags.push({ code: 'name_changed', params: { previous: last.real_name } });
    }
    if (r.round > 0) flags.push({ code: 'resubmitted', params: { count: r.round } });
    out.set(r.id, flags);
  }
  return out;
}

/** `GET admin/verification/queue`: under review, oldest first. */
export async function queue(
  deps: Deps,
  filter: { tier?: VerificationTier },
  page: { page: number; pageSize: number },
): Promise<AdminVerificationQueueData> {
  const { rows, total } = await repo.queue(deps.db, filter, {
    offset: (page.page - 1) * page.pageSize,
    limit: page.pageSize,
  });
  const [flags, customers] = await Promise.all([
    flagsOf(deps, rows),
    deps.customers(rows.map((r) => r.customer_id)),
  ]);
  const now = deps.clock.now().getTime();
  const list = rows.map(
    (r): AdminVerificationQueueRow => ({
      id: r.id,
      tier: r.tier,
      customer_id: r.customer_id,
      uid: customers.get(r.customer_id)?.uid ?? '',
      customer_name: accountLabel(customers.get(r.customer_id)),
      submitted_at: r.submitted_at.getTime(),
      age_ms: Math.max(0, now - r.submitted_at.getTime()),
      resubmissions: r.round,
      flags: flags.get(r.id) ?? [],
      awaiting_second: r.first_approved_by !== null,
    }),
  );
  return { list, total, page: page.page, page_size: page.pageSize };
}

/** `GET admin/verification/detail`: the submission, its documents (links issued and audited), its history. */
export async function detail(deps: Deps, staffId: string, id: string): Promise<AdminVerificationDetailData> {
  const s = await repo.findSubmission(deps.db, id);
  if (!s) refuse('NOT_FOUND');
  const [documents, history, customers, flags, setting] = await Promise.all([
    repo.documentsOf(deps.db, [s.id]),
    repo.historyOf(deps.db, s.customer_id, s.tier),
    deps.customers([s.customer_id]),
    flagsOf(deps, [s]),
    repo.setting(deps.db),
  ]);
  const earlier = history.filter((h) => h.id !== s.id);
  const [facts, links, earlierDocs] = await Promise.all([
    deps.uploads.facts(
      deps.db,
      documents.map((d) => d.file_id),
    ),
    deps.uploads.staffLinks(
      staffId,
      documents.map((d) => d.file_id),
      { about: `verification ${s.id}`, purposes: ['verification'] },
    ),
    repo.documentsOf(
      deps.db,
      earlier.map((h) => h.id),
    ),
  ]);
  const staffIds = [s.first_approved_by, s.decided_by, ...earlier.map((h) => h.decided_by)].filter(
    (x): x is string => x !== null,
  );
  const names = await deps.staffNames([...new Set(staffIds)]);
  const customer = customers.get(s.customer_id);
  const data =
    s.tier === 'primary'
      ? {
          ...(customerData(deps, s) as object),
          id_number: deps.cipher.openText(s.id, s.id_number_sealed ?? ''),
        }
      : customerData(deps, s);
  return {
    id: s.id,
    tier: s.tier,
    state: s.state,
    customer_id: s.customer_id,
    uid: customer?.uid ?? '',
    customer_name: accountLabel(customer),
    nationality: s.nationality,
    submitted_at: s.submitted_at.getTime(),
    decided_at: s.decided_at?.getTime() ?? null,
    data: data as AdminVerificationDetailData['data'],
    documents: documents.flatMap((d) => {
      const f = facts.get(d.file_id);
      const link = links.get(d.file_id);
      if (!f) return [];
      return [
        {
          slot: d.slot,
          file_id: d.file_id,
          status: d.status,
          reason_code: d.reason_code,
          note: d.note,
          mime: f.mime,
          width: f.width,
          height: f.height,
          size: f.size,
          sha256: f.sha256,
          url: link?.url ?? '',
          expires_at: link?.expires_at ?? 0,
        },
      ];
    }),
    flags: flags.get(s.id) ?? [],
    first_approval:
      s.first_approved_by && s.first_approved_at
        ? {
            staff_id: s.first_approved_by,
            staff_name: names[s.first_approved_by] ?? s.first_approved_by,
            at: s.first_approved_at.getTime(),
          }
        : null,
    four_eyes: s.tier === 'advanced' && setting.four_eyes_advanced,
    history: earlier.map((h) => ({
      id: h.id,
      state: h.state,
      submitted_at: h.submitted_at.getTime(),
      decided_at: h.decided_at?.getTime() ?? null,
      decided_by: h.decided_by ? (names[h.decided_by] ?? h.decided_by) : null,
      documents: earlierDocs
        .filter((d) => d.submission_id === h.id)
        .map((d) => ({ slot: d.slot, status: d.status, reason_code: d.reason_code, note: d.note })),
    })),
  };
}

const STATUS_OF: Record<AdminDocumentDecision['decision'], DocumentStatus> = {
  approve: 'approved',
  reject: 'rejected',
  request_revision: 'revision_requested',
};

/** One decision per document of the submission, each with its reason where it refuses. */
function checkDecisions(documents: readonly repo.DocumentRow[], decisions: readonly AdminDocumentDecision[]) {
  const bySlot = new Map<string, AdminDocumentDecision>();
  for (const d of decisions) {
    if (bySlot.has(d.slot)) refuse('BAD_INPUT', { field: 'decisions' });
    if (!documents.some((doc) => doc.slot === d.slot))
      refuse('VERIFICATION_DECISION_MISSING', { slot: d.slot });
    bySlot.set(d.slot, d);
  }
  for (const doc of documents) {
    const d = bySlot.get(doc.slot);
    if (!d) refuse('VERIFICATION_DECISION_MISSING', { slot: doc.slot });
    if (d.decision === 'approve') continue;
    if (!d.reason_code) refuse('VERIFICATION_REASON_REQUIRED', { slot: doc.slot });
    if (VERIFICATION_REASON_CODES[d.reason_code].note && (d.note ?? '').trim() === '') {
      refuse('VERIFICATION_NOTE_REQUIRED', { slot: doc.slot });
    }
  }
  return bySlot;
}

function outcomeOf(decisions: Iterable<AdminDocumentDecision>): SubmissionState {
  const all = [...decisions];
  if (all.every((d) => d.decision === 'approve')) return 'approved';
  if (all.some((d) => d.decision === 'reject')) return 'rejected';
  return 'revision_requested';
}

/** The audit text of a decision: `id_front approve; id_back reject blurry (note)`. */
function auditReason(bySlot: Map<string, AdminDocumentDecision>): string {
  return [...bySlot.values()]
    .map((d) =>
      [d.slot, d.decision, d.reason_code ?? '', d.note ? `(${d.note.trim()})` : ''].filter(Boolean).join(' '),
    )
    .join('; ');
}

type Decided = {
  row: repo.SubmissionRow;
  state: SubmissionState;
  awaitingSecond: boolean;
  documents: repo.DocumentRow[];
};

/** One ID number, one customer: approving a number another customer holds approved is refused. */
async function checkIdentityFree(deps: Deps, tx: Tx, s: repo.SubmissionRow): Promise<void> {
  if (!s.id_hash) return;
  const holder = await repo.approvedHolder(tx, s.id_hash, s.customer_id);
  if (!holder) return;
  const uid = (await deps.customers([holder])).get(holder)?.uid ?? holder;
  refuse('VERIFICATION_DUPLICATE_IDENTITY', { uid });
}

/** Four-eyes: the first approval is recorded (audited); the submission stays under review. */
async function recordFirstApproval(
  deps: Deps,
  tx: Tx,
  s: repo.SubmissionRow,
  staffId: string,
  reason: string,
) {
  await repo.updateSubmission(tx, s.id, { first_approved_by: staffId, first_approved_at: deps.clock.now() });
  await deps.audit.record(tx, {
    actorId: staffId,
    action: 'verification.approve_first',
    targetType: 'verification_submission',
    targetId: s.id,
    before: { state: s.state },
    after: { state: s.state, first_approved_by: staffId, customer_id: s.customer_id, tier: s.tier },
    reason,
  });
}

/** The decision itself: each document, the submission and the tier, then the audit record (last). */
async function applyDecision(
  deps: Deps,
  tx: Tx,
  input: { s: repo.SubmissionRow; documents: repo.DocumentRow[]; bySlot: Map<string, AdminDocumentDecision> },
  staffId: string,
  outcome: SubmissionState,
): Promise<repo.DocumentRow[]> {
  const { s, bySlot } = input;
  const now = deps.clock.now();
  const decided = input.documents.map((doc) => {
    const d = bySlot.get(doc.slot) as AdminDocumentDecision;
    return {
      ...doc,
      status: STATUS_OF[d.decision],
      reason_code: d.reason_code ?? null,
      note: (d.note ?? '').trim(),
    };
  });
  for (const doc of decided) {
    const { status, reason_code, note } = doc;
    await repo.updateDocument(tx, { submissionId: s.id, slot: doc.slot }, { status, reason_code, note });
  }
  await repo.updateSubmission(tx, s.id, { state: outcome, decided_at: now, decided_by: staffId });
  await repo.upsertTier(tx, {
    customer_id: s.customer_id,
    tier: s.tier,
    state: outcome,
    submission_id: s.id,
    updated_at: now,
  });
  await deps.audit.record(tx, {
    actorId: staffId,
    action: 'verification.decide',
    targetType: 'verification_submission',
    targetId: s.id,
    before: { state: s.state, first_approved_by: s.first_approved_by },
    after: {
      state: outcome,
      customer_id: s.customer_id,
      tier: s.tier,
      documents: decided.map((d) => ({ slot: d.slot, status: d.status, reason_code: d.reason_code })),
    },
    reason: auditReason(bySlot),
  });
  return decided;
}

async function decideIn(
  deps: Deps,
  tx: Tx,
  staffId: string,
  body: AdminVerificationDecideBody,
): Promise<Decided> {
  const s = await repo.findSubmission(tx, body.id, { lock: true });
  if (!s) refuse('NOT_FOUND');
  if (s.state !== 'under_review') refuse('VERIFICATION_NOT_UNDER_REVIEW', { state: s.state });
  const documents = await repo.documentsOf(tx, [s.id]);
  const bySlot = checkDecisions(documents, body.decisions);
  const outcome = outcomeOf(bySlot.values());
  if (outcome === 'approved') await checkIdentityFree(deps, tx, s);
  const fourEyes =
    s.tier === 'advanced' && outcome === 'approved' && (await repo.setting(tx)).four_eyes_advanced;
  if (fourEyes && s.first_approved_by === null) {
    await recordFirstApproval(deps, tx, s, staffId, auditReason(bySlot));
    return { row: s, state: s.state, awaitingSecond: true, documents };
  }
  if (fourEyes && s.first_approved_by === staffId) refuse('VERIFICATION_SECOND_STAFF');
  const decided = await applyDecision(deps, tx, { s, documents, bySlot }, staffId, outcome);
  return { row: s, state: outcome, awaitingSecond: false, documents: decided };
}

/**
 * `POST admin/verification/decide`. Two staff deciding at once: the row lock orders them and the
 * second finds it decided (VERIFICATION_NOT_UNDER_REVIEW). Two customers' approvals of one ID number
 * at once: the unique index on approved ID hashes lets one commit; the other is refused by name.
 */
export async function decide(
  deps: Deps,
  staffId: string,
  body: AdminVerificationDecideBody,
): Promise<AdminVerificationDecideData> {
  let decided: Decided;
  try {
    decided = await inTransaction(deps.db, (tx) => decideIn(deps, tx, staffId, body));
  } catch (error) {
    if (!isUniqueViolation(error, 'verification_identity_approved')) throw error;
    const s = await repo.findSubmission(deps.db, body.id);
    const holder = s?.id_hash ? await repo.approvedHolder(deps.db, s.id_hash, s.customer_id) : null;
    const uid = holder ? ((await deps.customers([holder])).get(holder)?.uid ?? holder) : '';
    refuse('VERIFICATION_DUPLICATE_IDENTITY', { uid });
  }
  if (!decided.awaitingSecond) {
    deps.log.info({ submission: body.id, state: decided.state }, 'verification decided');
    await notifyDecision(deps, {
      customerId: decided.row.customer_id,
      tier: decided.row.tier,
      state: decided.state,
      documents: decided.documents,
    });
  }
  return { id: body.id, state: decided.state, awaiting_second: decided.awaitingSecond };
}

/** How staff screens name a customer's account, in the queue and the review alike: the account name, else the e-mail, else the phone (the typed real name is in the review's data). */
function accountLabel(
  customer: { name: string | null; email: string | null; phone: string | null } | undefined,
): string {
  return customer?.name || customer?.email || customer?.phone || '';
}
