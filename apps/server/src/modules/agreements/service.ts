import {
  type AcceptAgreementData,
  AGREEMENT_KINDS,
  AGREEMENT_LIMITS,
  type AgreementData,
  type AgreementKind,
  type AgreementStatusData,
  agreementBlocks,
  type Lang,
} from '@bourse/protocol';
import { refuse } from '../../http/refusal.ts';
import { createAgreementsAdmin } from './admin.ts';
import type { AcceptanceMeta, AgreementsDeps } from './context.ts';
import { DEMO_AGREEMENTS } from './demo.ts';
import * as repo from './repo.ts';

export type { AcceptanceMeta, AgreementsDeps } from './context.ts';

const IP_MAX = 64;
const USER_AGENT_MAX = 400;

function textOf(row: repo.VersionRow, field: 'title' | 'summary' | 'body', lang: Lang): string {
  return row[`${field}_${lang}`];
}

function isKind(value: string): value is AgreementKind {
  return (AGREEMENT_KINDS as readonly string[]).includes(value);
}

function versionNumber(value: string | number | undefined): number | null {
  if (value === undefined) return null;
  const n = typeof value === 'number' ? value : Number.parseInt(value, 10);
  if (!Number.isInteger(n) || n < 1 || n > AGREEMENT_LIMITS.versionMax)
    refuse('BAD_INPUT', { field: 'version' });
  return n;
}

function clip(value: string | null, max: number): string | null {
  if (value === null || value === '') return null;
  return value.slice(0, max);
}

/**
 * Versioned agreements (README): which version of each kind is in force is decided by the injected
 * clock against each published version's effective date; customers accept each version once.
 */
export function createAgreements(deps: AgreementsDeps) {
  const { db, clock } = deps;

  async function accept(
    customerId: string,
    input: { kind: string; version: number; source: 'web' | 'register' },
    meta: AcceptanceMeta,
  ): Promise<AcceptAgreementData> {
    if (!isKind(input.kind)) refuse('BAD_INPUT', { field: 'kind' });
    const now = clock.now();
    const row = await repo.findVersion(db, { kind: input.kind, version: input.version });
    // Only a version customers can read can be accepted: not a draft, not one still to come.
    if (row?.status !== 'published' || !row.effective_at || row.effective_at > now)
      refuse('AGREEMENT_NOT_FOUND', { kind: input.kind });
    const saved = await repo.insertAcceptance(db, {
      customer_id: customerId,
      kind: input.kind,
      version: input.version,
      accepted_at: now,
      source: input.source,
      ip: clip(meta.ip, IP_MAX),
      user_agent: clip(meta.userAgent, USER_AGENT_MAX),
    });
    return { kind: input.kind, version: saved.version, accepted_at: saved.accepted_at.getTime() };
  }

  return {
    /** One effective version (the current one when none is named) in the reader's language. */
    async agreement(input: { kind: string; version?: string; lang: Lang }): Promise<AgreementData> {
      if (!isKind(input.kind)) refuse('BAD_INPUT', { field: 'kind' });
      const wanted = versionNumber(input.version);
      const versions = await repo.effectiveVersions(db, input.kind, clock.now(), AGREEMENT_LIMITS.historyMax);
      const current = versions[0];
      const row = wanted === null ? current : versions.find((v) => v.version === wanted);
      if (!row?.effective_at) refuse('AGREEMENT_NOT_FOUND', { kind: input.kind });
      return {
        kind: input.kind,
        version: row.version,
        title: textOf(row, 'title', input.lang),
        summary: textOf(row, 'summary', input.lang),
        blocks: agreementBlocks(textOf(row, 'body', input.lang)),
        effective_at: row.effective_at.getTime(),
        current: row.version === current?.version,
        versions: versions.map((v) => ({
          version: v.version,
          title: textOf(v, 'title', input.lang),
          effective_at: (v.effective_at as Date).getTime(),
        })),
      };
    },

    /** The current versions this customer has not accepted (the banner), and what they have. */
    async status(customerId: string, lang: Lang): Promise<AgreementStatusData> {
      const [current, accepted] = await Promise.all([
        repo.currentVersions(db, clock.now()),
        repo.acceptancesOf(db, customerId),
      ]);
      const done = new Set(accepted.map((a) => `${a.kind}:${a.version}`));
      return {
        pending: current
          .filter((row) => !done.has(`${row.kind}:${row.version}`))
          .map((row) => ({
            kind: row.kind as AgreementKind,
            version: row.version,
            title: textOf(row, 'title', lang),
            summary: textOf(row, 'summary', lang),
            effective_at: (row.effective_at as Date).getTime(),
          })),
        accepted: accepted.map((a) => ({
          kind: a.kind as AgreementKind,
          version: a.version,
          accepted_at: a.accepted_at.getTime(),
        })),
      };
    },

    /** Records acceptance of a version (idempotent: the first acceptance stands). */
    async accept(customerId: string, input: { kind: string; version: string }, meta: AcceptanceMeta) {
      const version = versionNumber(input.version) as number;
      return accept(customerId, { kind: input.kind, version, source: 'web' }, meta);
    },

    /**
     * The register form's agree box names the user agreement, the privacy notice and the risk
     * disclosure (each linked) and accepts every version in force: called by accounts once the
     * customer exists. Nothing to accept is not an error.
     */
    async acceptAtRegistration(customerId: string, meta: AcceptanceMeta): Promise<void> {
      for (const current of await repo.currentVersions(db, clock.now()))
        await accept(customerId, { kind: current.kind, version: current.version, source: 'register' }, meta);
    },

    admin: createAgreementsAdmin(deps),

    /** DEMO_CONTENT: version 1 of each kind, in force from now, where the kind has no version yet. */
    async seedDemo(): Promise<void> {
      const now = clock.now();
      for (const demo of DEMO_AGREEMENTS) {
        if ((await repo.countVersions(db, demo.kind)) > 0) continue;
        await repo.insertVersion(db, {
          ...demo.texts,
          kind: demo.kind,
          version: 1,
          status: 'published',
          effective_at: now,
          published_at: now,
          published_by: null,
          demo: true,
          created_at: now,
          updated_at: now,
        });
      }
    },
  };
}

export type Agreements = ReturnType<typeof createAgreements>;
