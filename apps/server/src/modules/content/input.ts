import type { ContentKind } from '@bourse/protocol';

/** What staff write (and the demo set holds): the text of a banner, notice or article in three languages. */
export type Texts = { en: string; zh: string; ft: string };

/** What the back office writes: every text in all three languages. */
export type ContentInput = {
  kind: ContentKind;
  title: Texts;
  /** Optional one-line teaser per language; empty strings when there is none. */
  summary?: Texts;
  body: Texts;
  image_url?: string | null;
  link?: string | null;
  sort?: number;
};
export type ContentPatch = Partial<ContentInput>;
