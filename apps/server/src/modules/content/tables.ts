/**
 * The content module's one table: banners and articles share a shape (three languages each), so
 * they share a table; `kind` tells them apart.
 */
export type ContentTables = {
  content_item: {
    id: string;
    /** `banner`, `news` or `announcement` (CONTENT_KINDS). */
    kind: string;
    title_en: string;
    title_zh: string;
    title_ft: string;
    summary_en: string;
    summary_zh: string;
    summary_ft: string;
    body_en: string;
    body_zh: string;
    body_ft: string;
    image_url: string | null;
    link: string | null;
    /** `draft` (never shown to customers) or `published`. */
    status: 'draft' | 'published';
    /** Lower first; ties go to the newest. */
    sort: number;
    /** Set on first publish and kept; null while a draft was never published. */
    published_at: Date | null;
    /** Demo entries (DEMO_CONTENT) are marked so an operator can find and replace them. */
    demo: boolean;
    created_at: Date;
    updated_at: Date;
  };
};
