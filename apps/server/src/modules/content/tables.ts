/**
 * The content module's tables: banners and articles share a shape (three languages each), so they
 * share `content_item`; `kind` tells them apart. Help articles belong to a `content_category`.
 */
export type ContentTables = {
  content_item: {
    id: string;
    /** `banner`, `news`, `announcement`, `help`, `about`, `security`, `benefit` or `text` (CONTENT_KINDS). */
    kind: string;
    title_en: string;
    title_zh: string;
    title_ft: string;
    summary_en: string;
    summary_zh: string;
    summary_ft: string;
    /** Markdown, checked on write and rendered through the sanitizer (markdown.ts). */
    body_en: string;
    body_zh: string;
    body_ft: string;
    image_url: string | null;
    link: string | null;
    /** `draft` (never shown to customers) or `published`. */
    status: 'draft' | 'published';
    /** Lower first; ties go to the newest. */
    sort: number;
    /** A help article's category (`content_category.id`); null for every other kind. */
    category_id: string | null;
    /**
     * When the entry is (or becomes) public: set on first publish and kept, or the scheduled time
     * (customers see it once the clock reaches it); null while a draft was never published.
     */
    published_at: Date | null;
    /** Demo entries (DEMO_CONTENT) are marked so an operator can find and replace them. */
    demo: boolean;
    created_at: Date;
    updated_at: Date;
  };
  content_category: {
    /** A readable slug chosen by staff (`deposits`): it appears in addresses (`/help?category=`). */
    id: string;
    name_en: string;
    name_zh: string;
    name_ft: string;
    /** Lower first. */
    sort: number;
    demo: boolean;
    created_at: Date;
    updated_at: Date;
  };
};
