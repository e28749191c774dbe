/**
 * The agreements module's tables: every version of every agreement kind (drafts included), and
 * each customer's acceptance of a version.
 */
export type AgreementsTables = {
  agreements_version: {
    /** `user`, `privacy` or `risk` (AGREEMENT_KINDS). */
    kind: string;
    /** 1, 2, 3… per kind, given when the draft is first saved; never reused. */
    version: number;
    title_en: string;
    title_zh: string;
    title_ft: string;
    /** What changed since the previous version: shown to customers who must accept it. */
    summary_en: string;
    summary_zh: string;
    summary_ft: string;
    /** The markdown source (AGREEMENT_LIMITS.bodyMax); rendered to text blocks, never to HTML. */
    body_en: string;
    body_zh: string;
    body_ft: string;
    /** `draft` (one per kind at most, editable, never shown to customers) or `published` (frozen). */
    status: 'draft' | 'published';
    /** From when a published version is in force; null while a draft. */
    effective_at: Date | null;
    published_at: Date | null;
    published_by: string | null;
    /** Demo versions (DEMO_CONTENT) are marked so an operator can find and replace them. */
    demo: boolean;
    created_at: Date;
    updated_at: Date;
  };
  agreements_acceptance: {
    customer_id: string;
    kind: string;
    version: number;
    accepted_at: Date;
    /** `web` (the banner or page) or `register` (the agree box at registration). */
    source: string;
    ip: string | null;
    user_agent: string | null;
  };
};
