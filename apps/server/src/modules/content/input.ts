import type { ContentKind } from '@bourse/protocol';

/** What staff write (and the demo set holds): the text of a banner, notice or article in three languages. */
export type Texts = { en: string; zh: string; ft: string };

/** What the back office writes: every text in all three languages; bodies and summaries in markdown. */
export type ContentInput = {
  kind: ContentKind;
  title: Texts;
  /** Optional one-line teaser per language; empty strings when there is none. */
  summary?: Texts;
  body: Texts;
  /** A help article's category (required for `help`, refused for other kinds). */
  category_id?: string | null;
  image_url?: string | null;
  link?: string | null;
  sort?: number;
};
export type ContentPatch = Partial<ContentInput>;

/** A help category as staff write it. */
export type CategoryInput = { id: string; name: Texts; sort?: number };
