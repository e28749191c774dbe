import {
  type AdminCapsBody,
  type AdminScoringBody,
  type AdminSuitabilityData,
  ASSESSED_RATINGS,
  type AssessmentData,
  type CapData,
  type CapsByRating,
  type JurisdictionProfileId,
  PRODUCT_CLASSES,
  type ProductClass,
  type QuestionnaireData,
  RISK_RATINGS,
  type RiskRating,
  type RiskRatingData,
  type ScoringVersionData,
  SUITABILITY_QUESTIONS,
  type SubmitQuestionnaireBody,
  type SubmitQuestionnaireData,
} from '@bourse/protocol';
import { type Db, inTransaction, type Tx } from '../../db/database.ts';
import { refuse } from '../../http/refusal.ts';
import type { AuditLog, StaffContext } from '../../http/staff.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { type CapRequest, checkCaps, enforce } from './caps.ts';
import * as repo from './repo.ts';
import { checkAnswers, checkScoring, score } from './scoring.ts';

/** What suitability needs from the jurisdiction module: the active profile's id. */
export type ActiveProfile = { active(): Promise<{ id: JurisdictionProfileId }> };

const DAY_MS = 86_400_000;
const HISTORY_MAX = 20;
const PROFILES: readonly JurisdictionProfileId[] = ['permissive', 'eu_retail', 'custom'];

function versionData(row: repo.VersionRow): ScoringVersionData {
  return {
    version: row.version,
    questions: row.scoring.questions,
    thresholds: row.scoring.thresholds,
    cooling_off_days: row.scoring.cooling_off_days,
    created_at: row.created_at.getTime(),
    created_by: row.created_by,
    reason: row.reason,
  };
}

function capsData(rows: readonly repo.CapRow[]): Record<JurisdictionProfileId, CapsByRating> {
  const out = {} as Record<JurisdictionProfileId, CapsByRating>;
  for (const profile of PROFILES) {
    out[profile] = {} as CapsByRating;
    for (const rating of RISK_RATINGS) out[profile][rating] = {} as Record<ProductClass, CapData>;
  }
  for (const r of rows)
    out[r.profile][r.rating][r.product] = { max_leverage: r.max_leverage, max_amount: String(r.max_amount) };
  return out;
}

function assessmentData(row: repo.AssessmentRow): AssessmentData {
  return {
    assessment_id: row.id,
    rating: row.rating,
    points: row.points,
    points_rating: row.points_rating,
    ceiling: row.ceiling,
    scoring_version: row.scoring_version,
    taken_at: row.taken_at.getTime(),
    retake_after: row.retake_after.getTime(),
  };
}

/** `2026-12-26 08:00 UTC`: the date a refusal names. */
function utcText(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * The risk questionnaire: the published scoring table (versioned), customers' assessments and
 * their ratings, and the caps a rating puts on each product class under the active jurisdiction
 * profile. Contracts and options ask `checkCap` (and contracts `maxLeverage` for display) through
 * the port wiring.ts injects; they never read these tables.
 */
export function createSuitability(deps: {
  db: Db;
  clock: Clock;
  audit: AuditLog;
  jurisdiction: ActiveProfile;
}) {
  const { db, clock, audit, jurisdiction } = deps;

  async function profileCaps(q: Db | Tx, profile: JurisdictionProfileId): Promise<CapsByRating> {
    return capsData(await repo.caps(q, profile))[profile];
  }

  /** The customer's rating now: their newest assessment's, or not_assessed. */
  async function ratingOf(q: Db | Tx, customerId: string): Promise<RiskRating> {
    return (await repo.latestAssessment(q, customerId))?.rating ?? 'not_assessed';
  }

  async function questionnaire(): Promise<QuestionnaireData> {
    const profile = (await jurisdiction.active()).id;
    const [version, caps] = await Promise.all([repo.currentVersion(db), profileCaps(db, profile)]);
    return {
      questions: SUITABILITY_QUESTIONS.map((q) => ({ id: q.id, kind: q.kind, options: [...q.options] })),
      scoring: versionData(version),
      profile,
      caps,
      currency: 'USDT',
    };
  }

  async function ratingData(q: Db | Tx, customerId: string): Promise<RiskRatingData> {
    const profile = (await jurisdiction.active()).id;
    const [rows, caps] = await Promise.all([
      repo.assessments(q, customerId, HISTORY_MAX),
      profileCaps(q, profile),
    ]);
    const latest = rows[0];
    const rating: RiskRating = latest?.rating ?? 'not_assessed';
    return {
      rating,
      assessed_at: latest ? latest.taken_at.getTime() : null,
      retake_after: latest ? latest.retake_after.getTime() : null,
      can_retake: !latest || latest.retake_after.getTime() <= clock.now().getTime(),
      profile,
      allows: caps[rating],
      currency: 'USDT',
      history: rows.map((r) => ({ ...assessmentData(r), answers: r.answers })),
    };
  }

  /** Scores and stores one assessment; refuses during the cooling-off period. Two racing submissions: one wins, the other sees it. */
  async function submit(customerId: string, body: SubmitQuestionnaireBody): Promise<SubmitQuestionnaireData> {
    const answers = checkAnswers(body as Record<string, unknown>);
    return inTransaction(db, async (tx) => {
      await repo.lockCustomer(tx, customerId);
      const now = clock.now();
      const previous = await repo.latestAssessment(tx, customerId);
      if (previous && previous.retake_after.getTime() > now.getTime())
        refuse('SUITABILITY_COOLING_OFF', { date: utcText(previous.retake_after) });
      const version = await repo.currentVersion(tx);
      const s = score(version.scoring, answers);
      const row: repo.AssessmentRow = {
        id: newId('sua', now.getTime()),
        customer_id: customerId,
        scoring_version: version.version,
        answers,
        points: s.points,
        points_rating: s.pointsRating,
        ceiling: s.ceiling,
        rating: s.rating,
        taken_at: now,
        retake_after: new Date(now.getTime() + version.scoring.cooling_off_days * DAY_MS),
      };
      await repo.insertAssessment(tx, row);
      return { assessment: assessmentData(row), rating: await ratingData(tx, customerId) };
    });
  }

  async function capFor(
    customerId: string,
    product: ProductClass,
  ): Promise<{ rating: RiskRating; cap: CapData }> {
    const profile = (await jurisdiction.active()).id;
    const rating = await ratingOf(db, customerId);
    const row = await repo.cap(db, { profile, rating, product });
    if (!row) throw new Error(`no suitability cap for ${profile}/${rating}/${product}`);
    return { rating, cap: { max_leverage: row.max_leverage, max_amount: String(row.max_amount) } };
  }

  async function admin(): Promise<AdminSuitabilityData> {
    const [rows, caps, counts, active] = await Promise.all([
      repo.versions(db),
      repo.caps(db),
      repo.ratingCounts(db),
      jurisdiction.active(),
    ]);
    const byRating = Object.fromEntries(
      ASSESSED_RATINGS.map((r) => [r, 0]),
    ) as AdminSuitabilityData['counts'];
    for (const c of counts)
      if (c.rating in byRating) byRating[c.rating as keyof typeof byRating] = Number(c.n);
    return {
      versions: rows.map(versionData),
      active_profile: active.id,
      caps: capsData(caps),
      counts: byRating,
    };
  }

  return {
    questionnaire,
    submit,
    rating: (customerId: string) => ratingData(db, customerId),
    /**
     * Refuses a real-book investment above what the customer's rating allows under the active
     * profile (RATING_PRODUCT_BLOCKED, RATING_CAP_EXCEEDED naming rating, product, cap and field).
     * `amountUnits` in USDT minor units (contracts: margin; options: stake; others: the purchase).
     */
    async checkCap(customerId: string, req: CapRequest): Promise<void> {
      const { rating, cap } = await capFor(customerId, req.productClass);
      enforce(rating, cap, req);
    },
    /** The highest contract leverage the customer's rating allows now (0: none). */
    async maxLeverage(customerId: string): Promise<number> {
      return (await capFor(customerId, 'contracts')).cap.max_leverage ?? 0;
    },
    admin,
    /** Back office: publish a new scoring version (audited with before, after and the reason). */
    async editScoring(staff: StaffContext, body: AdminScoringBody): Promise<AdminSuitabilityData> {
      const table = checkScoring(body);
      await inTransaction(db, async (tx) => {
        const before = await repo.lockCurrentVersion(tx);
        const version = before.version + 1;
        await repo.insertVersion(tx, {
          version,
          scoring: table,
          created_at: clock.now(),
          created_by: staff.staffId,
          reason: body.reason,
        });
        await audit.record(tx, {
          actorId: staff.staffId,
          action: 'suitability.scoring.publish',
          targetType: 'suitability_scoring',
          targetId: String(version),
          before: { version: before.version, ...before.scoring },
          after: { version, ...table },
          reason: body.reason,
        });
      });
      return admin();
    },
    /** Back office: the custom profile's caps (built-in profiles are read-only), audited. */
    async editCaps(staff: StaffContext, body: AdminCapsBody): Promise<AdminSuitabilityData> {
      const caps = checkCaps(body.caps);
      await inTransaction(db, async (tx) => {
        const before = capsData(await repo.caps(tx, 'custom', { lock: true })).custom;
        const now = clock.now();
        for (const rating of RISK_RATINGS)
          for (const product of PRODUCT_CLASSES)
            await repo.updateCap(
              tx,
              { profile: 'custom', rating, product },
              { ...caps[rating][product], updated_at: now, updated_by: staff.staffId },
            );
        await audit.record(tx, {
          actorId: staff.staffId,
          action: 'suitability.caps.update',
          targetType: 'suitability_caps',
          targetId: 'custom',
          before,
          after: caps,
          reason: body.reason,
        });
      });
      return admin();
    },
  };
}

export type Suitability = ReturnType<typeof createSuitability>;
/** What an investing module declares and gets injected (wiring.ts). */
export type RatingCaps = Pick<Suitability, 'checkCap' | 'maxLeverage'>;
