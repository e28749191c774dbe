import {
  type AdminAgreementDraftBody,
  type AdminAgreementPublishBody,
  type AdminAgreementsData,
  type AdminAgreementVersionData,
  type AdminAgreementVersionRow,
  AGREEMENT_KINDS,
  AGREEMENT_LIMITS,
  type AgreementKind,
  LANGS,
} from '@bourse/protocol';
import { inTransaction } from '../../db/database.ts';
import { refuse } from '../../http/refusal.ts';
import type { StaffContext } from '../../http/staff.ts';
import type { AgreementsDeps } from './context.ts';
import * as repo from './repo.ts';

const FIELDS = ['title', 'summary', 'body'] as const;
/** How far in the past a requested effective date may be and still mean "now" (PUBLISH_PAST_GRACE_MS). */
export const PUBLISH_PAST_GRACE_MS = 10 * 60_000;

function rowData(
  row: repo.VersionRow,
  at: { current: number | null; now: Date },
  counts: Map<string, number>,
): AdminAgreementVersionRow {
  const current = at.current;
  const state =
    row.status === 'draft'
      ? 'draft'
      : row.version === current
        ? 'current'
        : row.effective_at && row.effective_at > at.now
          ? 'scheduled'
          : 'superseded';
  return {
    state,
    kind: row.kind as AgreementKind,
    version: row.version,
    status: row.status,
    title_en: row.title_en,
    effective_at: row.effective_at?.getTime() ?? null,
    published_at: row.published_at?.getTime() ?? null,
    current: row.version === current && row.status === 'published',
    acceptances: counts.get(`${row.kind}:${row.version}`) ?? 0,
  };
}

/** Every text of a draft, trimmed; title and body are required in each language to publish. */
function draftTexts(body: AdminAgreementDraftBody) {
  const out: Record<string, string> = {};
  for (const field of FIELDS)
    for (const lang of LANGS) out[`${field}_${lang}`] = body[`${field}_${lang}`].trim();
  return out as Pick<repo.VersionRow, `${(typeof FIELDS)[number]}_${(typeof LANGS)[number]}`>;
}

function effectiveAtOf(value: number | string): Date {
  const ms = typeof value === 'number' ? value : Number.parseInt(value, 10);
  if (!Number.isSafeInteger(ms)) refuse('BAD_INPUT', { field: 'effective_at' });
  return new Date(ms);
}

/**
 * The back office's side (content.write): every version with its acceptance count, one version's
 * texts, the draft of the next version, and publishing it with an effective date — audited.
 */
export function createAgreementsAdmin(deps: AgreementsDeps) {
  const { db, clock, audit } = deps;

  return {
    async list(): Promise<AdminAgreementsData> {
      const now = clock.now();
      const [rows, counts, current] = await Promise.all([
        repo.allVersions(db),
        repo.acceptanceCounts(db),
        repo.currentVersions(db, now),
      ]);
      const currentOf = new Map(current.map((r) => [r.kind, r.version]));
      return {
        kinds: AGREEMENT_KINDS.map((kind) => {
          const version = currentOf.get(kind) ?? null;
          return {
            kind,
            current_version: version,
            versions: rows
              .filter((r) => r.kind === kind)
              .map((r) => rowData(r, { current: version, now }, counts)),
          };
        }),
      };
    },

    async version(input: { kind: AgreementKind; version: string }): Promise<AdminAgreementVersionData> {
      const row = await repo.findVersion(db, { kind: input.kind, version: Number(input.version) });
      if (!row) refuse('NOT_FOUND');
      const now = clock.now();
      const [counts, current] = await Promise.all([repo.acceptanceCounts(db), repo.currentVersions(db, now)]);
      const currentVersion = current.find((r) => r.kind === row.kind)?.version ?? null;
      return {
        ...rowData(row, { current: currentVersion, now }, counts),
        ...draftTexts(row as unknown as AdminAgreementDraftBody),
      };
    },

    /** Saves the kind's draft (created as the next version number on first save). */
    async saveDraft(staff: StaffContext, body: AdminAgreementDraftBody): Promise<AdminAgreementVersionRow> {
      const texts = draftTexts(body);
      const now = clock.now();
      return inTransaction(db, async (tx) => {
        const head = await repo.kindHead(tx, body.kind);
        const draft = await repo.findDraft(tx, body.kind);
        const version = draft?.version ?? head.maxVersion + 1;
        if (version > AGREEMENT_LIMITS.versionMax) refuse('BAD_INPUT', { field: 'version' });
        if (draft) await repo.updateVersion(tx, { kind: body.kind, version }, { ...texts, updated_at: now });
        else
          await repo.insertVersion(tx, {
            ...texts,
            kind: body.kind,
            version,
            status: 'draft',
            effective_at: null,
            published_at: null,
            published_by: null,
            demo: false,
            created_at: now,
            updated_at: now,
          });
        await audit.record(tx, {
          actorId: staff.staffId,
          action: 'agreement.draft',
          targetType: 'agreements_version',
          targetId: `${body.kind}:${version}`,
          before: draft ? { title_en: draft.title_en } : null,
          after: { title_en: texts.title_en },
          reason: draft ? 'draft updated' : 'draft created',
        });
        const saved = (await repo.findVersion(tx, { kind: body.kind, version })) as repo.VersionRow;
        return rowData(saved, { current: null, now }, new Map());
      });
    },

    /**
     * Publishes the kind's draft from `effective_at` on: not in the past (customers accepted what was
     * in force) and not before the latest published version (the current one only moves forward).
     */
    async publish(staff: StaffContext, body: AdminAgreementPublishBody): Promise<AdminAgreementVersionRow> {
      const now = clock.now();
      const requested = effectiveAtOf(body.effective_at);
      // A date a few minutes past (the form's "now" by the time it arrives) means now; older is refused.
      if (requested.getTime() < now.getTime() - PUBLISH_PAST_GRACE_MS)
        refuse('BAD_INPUT', { field: 'effective_at' });
      const effectiveAt = new Date(Math.max(requested.getTime(), now.getTime()));
      return inTransaction(db, async (tx) => {
        const head = await repo.kindHead(tx, body.kind);
        const key = { kind: body.kind, version: Number(body.version) };
        const row = await repo.findVersion(tx, key, { forUpdate: true });
        if (!row) refuse('NOT_FOUND');
        if (row.status !== 'draft') refuse('BAD_INPUT', { field: 'version' });
        for (const lang of LANGS)
          for (const field of ['title', 'body'] as const)
            if (row[`${field}_${lang}`].trim() === '') refuse('BAD_INPUT', { field: `${field}_${lang}` });
        if (head.lastEffective && effectiveAt < head.lastEffective)
          refuse('BAD_INPUT', { field: 'effective_at' });
        await repo.updateVersion(tx, key, {
          status: 'published',
          effective_at: effectiveAt,
          published_at: now,
          published_by: staff.staffId,
          updated_at: now,
        });
        await audit.record(tx, {
          actorId: staff.staffId,
          action: 'agreement.publish',
          targetType: 'agreements_version',
          targetId: `${key.kind}:${key.version}`,
          before: { status: 'draft' },
          after: { status: 'published', effective_at: effectiveAt.toISOString() },
          reason: body.reason,
        });
        const saved = (await repo.findVersion(tx, key)) as repo.VersionRow;
        const current =
          (await repo.currentVersions(tx, now)).find((r) => r.kind === key.kind)?.version ?? null;
        return rowData(saved, { current, now }, new Map());
      });
    },
  };
}
