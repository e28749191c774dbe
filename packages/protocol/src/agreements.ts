import { type Static, Type } from 'typebox';
import { CommonFields } from './access.ts';

/**
 * Versioned agreements (modules/agreements): the user agreement, the privacy notice and the risk
 * disclosure. Each version is written in three languages as a small markdown subset and becomes
 * current at its effective date; customers accept each current version once.
 */
export const AGREEMENT_KINDS = ['user', 'privacy', 'risk'] as const;
export type AgreementKind = (typeof AGREEMENT_KINDS)[number];

export const AGREEMENT_LIMITS = {
  titleMax: 120,
  summaryMax: 1_000,
  bodyMax: 40_000,
  versionMax: 100_000,
  /** Earlier versions listed with an agreement. */
  historyMax: 50,
  reasonMax: 500,
  /** How many blocks a body may render into (a bound on the parser's output). */
  blocksMax: 2_000,
} as const;

const kind = Type.Union(AGREEMENT_KINDS.map((k) => Type.Literal(k)));
const version = Type.String({ pattern: '^[1-9][0-9]{0,5}$' });

export const GetAgreementQuery = Type.Object(
  { ...CommonFields, kind, version: Type.Optional(version) },
  { additionalProperties: false },
);
export type GetAgreementQuery = Static<typeof GetAgreementQuery>;

export const AgreementStatusQuery = Type.Object({ ...CommonFields }, { additionalProperties: false });
export type AgreementStatusQuery = Static<typeof AgreementStatusQuery>;

export const AcceptAgreementBody = Type.Object(
  { ...CommonFields, kind, version },
  { additionalProperties: false },
);
export type AcceptAgreementBody = Static<typeof AcceptAgreementBody>;

export const AdminAgreementsQuery = Type.Object({ ...CommonFields }, { additionalProperties: false });
export type AdminAgreementsQuery = Static<typeof AdminAgreementsQuery>;

export const AdminAgreementVersionQuery = Type.Object(
  { ...CommonFields, kind, version },
  { additionalProperties: false },
);
export type AdminAgreementVersionQuery = Static<typeof AdminAgreementVersionQuery>;

const text = (max: number) => Type.String({ maxLength: max });
/** The draft of the next version of a kind, flat so a form posts it as is (one draft per kind). */
export const AdminAgreementDraftBody = Type.Object(
  {
    ...CommonFields,
    kind,
    title_en: text(AGREEMENT_LIMITS.titleMax),
    title_zh: text(AGREEMENT_LIMITS.titleMax),
    title_ft: text(AGREEMENT_LIMITS.titleMax),
    summary_en: text(AGREEMENT_LIMITS.summaryMax),
    summary_zh: text(AGREEMENT_LIMITS.summaryMax),
    summary_ft: text(AGREEMENT_LIMITS.summaryMax),
    body_en: text(AGREEMENT_LIMITS.bodyMax),
    body_zh: text(AGREEMENT_LIMITS.bodyMax),
    body_ft: text(AGREEMENT_LIMITS.bodyMax),
  },
  { additionalProperties: false },
);
export type AdminAgreementDraftBody = Static<typeof AdminAgreementDraftBody>;

export const AdminAgreementPublishBody = Type.Object(
  {
    ...CommonFields,
    kind,
    version,
    /** Epoch milliseconds; not before now, not before the kind's latest published version. */
    effective_at: Type.Union([Type.Integer({ minimum: 0 }), Type.String({ pattern: '^[0-9]{1,15}$' })]),
    reason: Type.String({ minLength: 1, maxLength: AGREEMENT_LIMITS.reasonMax }),
  },
  { additionalProperties: false },
);
export type AdminAgreementPublishBody = Static<typeof AdminAgreementPublishBody>;

/** A body rendered into blocks: text only, never HTML; the apps render each as an element. */
export type AgreementBlock =
  | { type: 'heading'; level: 2 | 3; text: string }
  | { type: 'paragraph'; text: string }
  | { type: 'list'; items: string[] };

export type AgreementVersionRef = { version: number; title: string; effective_at: number };

/** `web/getAgreement`: one effective version in the reader's language, with the kind's history. */
export type AgreementData = {
  kind: AgreementKind;
  version: number;
  title: string;
  summary: string;
  blocks: AgreementBlock[];
  effective_at: number;
  /** Whether this is the version in force now. */
  current: boolean;
  /** Every effective version of the kind, newest first (the current one included). */
  versions: AgreementVersionRef[];
};

export type AgreementPending = {
  kind: AgreementKind;
  version: number;
  title: string;
  summary: string;
  effective_at: number;
};

/** `web/agreementStatus`: the current versions I have not accepted, and those I have. */
export type AgreementStatusData = {
  pending: AgreementPending[];
  accepted: Array<{ kind: AgreementKind; version: number; accepted_at: number }>;
};

export type AcceptAgreementData = { kind: AgreementKind; version: number; accepted_at: number };

export type AdminAgreementVersionRow = {
  kind: AgreementKind;
  version: number;
  status: 'draft' | 'published';
  title_en: string;
  effective_at: number | null;
  published_at: number | null;
  /** In force now (the latest effective published version). */
  current: boolean;
  /** `draft`; published: `current`, `scheduled` (in force later) or `superseded` (by a later one). */
  state: 'draft' | 'current' | 'scheduled' | 'superseded';
  acceptances: number;
};

export type AdminAgreementsData = {
  kinds: Array<{ kind: AgreementKind; current_version: number | null; versions: AdminAgreementVersionRow[] }>;
};

export type AdminAgreementVersionData = AdminAgreementVersionRow & {
  title_zh: string;
  title_ft: string;
  summary_en: string;
  summary_zh: string;
  summary_ft: string;
  body_en: string;
  body_zh: string;
  body_ft: string;
};

const HEADING = /^(#{1,3})\s+(.*)$/;
const ITEM = /^\s*(?:[-*+]|\d{1,3}[.)])\s+(.*)$/;

/** Markdown emphasis and links reduced to their text: the blocks carry words, not markup. */
function plain(line: string): string {
  return line
    .replace(/\[([^\]]*)\]\((?:[^()]|\([^()]*\))*\)/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/`([^`]*)`/g, '$1')
    .trim();
}

/**
 * The markdown subset an agreement is written in — `#`/`##`/`###` headings, paragraphs separated
 * by blank lines, `-`/`1.` lists — turned into text blocks. Anything else (HTML included) stays
 * literal text, so nothing a writer types can become markup in a customer's browser. Pure and
 * browser-safe: the back office previews with the same function the server serves with.
 */
export function agreementBlocks(markdown: string): AgreementBlock[] {
  const blocks: AgreementBlock[] = [];
  let paragraph: string[] = [];
  let list: string[] | null = null;
  const flush = () => {
    if (paragraph.length > 0) blocks.push({ type: 'paragraph', text: paragraph.join(' ') });
    if (list && list.length > 0) blocks.push({ type: 'list', items: list });
    paragraph = [];
    list = null;
  };
  for (const raw of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    if (blocks.length >= AGREEMENT_LIMITS.blocksMax) break;
    const line = raw.trimEnd();
    if (line.trim() === '') {
      flush();
      continue;
    }
    const heading = HEADING.exec(line.trim());
    if (heading) {
      flush();
      const level = (heading[1] as string).length === 3 ? 3 : 2;
      blocks.push({ type: 'heading', level, text: plain(heading[2] as string) });
      continue;
    }
    const item = ITEM.exec(line);
    if (item) {
      if (paragraph.length > 0) flush();
      list ??= [];
      list.push(plain(item[1] as string));
      continue;
    }
    if (list) {
      const last = list.length - 1;
      list[last] = `${list[last]} ${plain(line)}`;
      continue;
    }
    paragraph.push(plain(line));
  }
  flush();
  return blocks.slice(0, AGREEMENT_LIMITS.blocksMax);
}
