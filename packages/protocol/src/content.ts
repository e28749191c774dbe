import { type Static, Type } from 'typebox';
import { CommonFields } from './access.ts';

/**
 * Operator content shown to customers: home banners and articles (news, announcements). Every
 * entry is written in all three languages; customers only ever see published entries, in the
 * language they asked for.
 */
export const CONTENT_KINDS = ['banner', 'news', 'announcement'] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];
export const ARTICLE_KINDS = ['news', 'announcement'] as const;
export type ArticleKind = (typeof ARTICLE_KINDS)[number];
export const CONTENT_STATUSES = ['draft', 'published'] as const;
export type ContentStatus = (typeof CONTENT_STATUSES)[number];

export const CONTENT_LIMITS = {
  titleMax: 120,
  summaryMax: 300,
  bodyMax: 20_000,
  urlMax: 500,
  sortMax: 1_000_000,
  bannersMax: 10,
  articlesPageSizeDefault: 20,
  articlesPageSizeMax: 50,
  idMax: 40,
} as const;

const digits = (max: number) => Type.String({ pattern: `^[0-9]{1,${max}}$` });

export const GetBannersQuery = Type.Object({ ...CommonFields }, { additionalProperties: false });
export type GetBannersQuery = Static<typeof GetBannersQuery>;

export const GetTextsListQuery = Type.Object(
  {
    ...CommonFields,
    kind: Type.Optional(Type.Union(ARTICLE_KINDS.map((k) => Type.Literal(k)))),
    page: Type.Optional(digits(6)),
    page_size: Type.Optional(digits(3)),
  },
  { additionalProperties: false },
);
export type GetTextsListQuery = Static<typeof GetTextsListQuery>;

export const GetArticleQuery = Type.Object(
  { ...CommonFields, id: Type.String({ minLength: 1, maxLength: CONTENT_LIMITS.idMax }) },
  { additionalProperties: false },
);
export type GetArticleQuery = Static<typeof GetArticleQuery>;

/** A published entry in the reader's language (`web/getBanners`, `web/getTextsList`, `web/getArticle`). */
export type ContentData = {
  id: string;
  kind: ContentKind;
  title: string;
  summary: string;
  /** Plain text; paragraphs separated by blank lines (never HTML). */
  body: string;
  image_url: string | null;
  /** Where the banner or article points: an app path (`/market`) or an https address; null for none. */
  link: string | null;
  published_at: number;
};

export type ContentPage = { total: number; page: number; page_size: number; items: ContentData[] };
