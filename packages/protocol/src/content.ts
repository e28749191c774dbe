import { type Static, Type } from 'typebox';
import { CommonFields } from './access.ts';

/**
 * Operator content shown to customers: home banners and articles — news, announcements, help
 * articles (in help categories), about, security advice, benefits and generic texts. Every entry is
 * written in all three languages, in markdown; customers only ever see published entries whose time
 * has come, in the language they asked for, with the body rendered to sanitized HTML by the server.
 */
export const CONTENT_KINDS = [
  'banner',
  'news',
  'announcement',
  'help',
  'about',
  'security',
  'benefit',
  'text',
] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];
/** What `getTextsList` lists without a `kind`: the news flash (news and announcements). */
export const ARTICLE_KINDS = ['news', 'announcement'] as const;
export type ArticleKind = (typeof ARTICLE_KINDS)[number];
/** Every kind `getTextsList` may be asked for (banners have `getBanners`). */
export const LISTED_KINDS = ['news', 'announcement', 'help', 'about', 'security', 'benefit', 'text'] as const;
export type ListedKind = (typeof LISTED_KINDS)[number];
export const CONTENT_STATUSES = ['draft', 'published'] as const;
export type ContentStatus = (typeof CONTENT_STATUSES)[number];
/** What the back office shows: a published entry whose time has not come yet is `scheduled`. */
export const CONTENT_STATES = ['draft', 'scheduled', 'published'] as const;
export type ContentState = (typeof CONTENT_STATES)[number];

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
  /** A search's text: 1 to 64 characters after trimming. */
  searchMax: 64,
  searchPageSizeMax: 50,
  /** A help category's name per language. */
  categoryNameMax: 40,
  /** Help categories in all (a small, hand-kept list). */
  categoriesMax: 50,
  /** How far ahead a publication may be scheduled: 366 days. */
  scheduleAheadMaxMs: 366 * 86_400_000,
  /** The back office's reason for publishing or unpublishing. */
  reasonMax: 500,
} as const;

/** A help category's id: a readable slug chosen when it is created (`deposits`, `account-security`). */
export const CATEGORY_ID_PATTERN = '^[a-z0-9][a-z0-9_-]{1,31}$';

const digits = (max: number) => Type.String({ pattern: `^[0-9]{1,${max}}$` });
const categoryId = Type.String({ pattern: CATEGORY_ID_PATTERN });

export const GetBannersQuery = Type.Object({ ...CommonFields }, { additionalProperties: false });
export type GetBannersQuery = Static<typeof GetBannersQuery>;

export const GetTextsListQuery = Type.Object(
  {
    ...CommonFields,
    kind: Type.Optional(Type.Union(LISTED_KINDS.map((k) => Type.Literal(k)))),
    /** Help articles of one category. */
    category: Type.Optional(categoryId),
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

export const GetHelpCategoriesQuery = Type.Object({ ...CommonFields }, { additionalProperties: false });
export type GetHelpCategoriesQuery = Static<typeof GetHelpCategoriesQuery>;

/** `GET web/searchContent`: published entries whose title, summary or body in `lang` contains `q`. */
export const SearchContentQuery = Type.Object(
  {
    ...CommonFields,
    q: Type.String({ minLength: 1, maxLength: 200 }),
    kind: Type.Optional(Type.Union(LISTED_KINDS.map((k) => Type.Literal(k)))),
    page: Type.Optional(digits(6)),
    page_size: Type.Optional(digits(3)),
  },
  { additionalProperties: false },
);
export type SearchContentQuery = Static<typeof SearchContentQuery>;

/** A published entry in the reader's language (`web/getBanners`, `web/getTextsList`, `web/getArticle`). */
export type ContentData = {
  id: string;
  kind: ContentKind;
  title: string;
  summary: string;
  /** The markdown source as staff wrote it. */
  body: string;
  /** The body rendered from markdown and sanitized by the server (the only HTML an app may show). */
  body_html: string;
  /** A help article's category; null for other kinds. */
  category_id: string | null;
  image_url: string | null;
  /** Where the banner or article points: an app path (`/market`) or an https address; null for none. */
  link: string | null;
  published_at: number;
};

export type ContentPage = { total: number; page: number; page_size: number; items: ContentData[] };

/** `GET web/getHelpCategories`: the help centre's categories in order, with how many articles each shows. */
export type HelpCategoryData = { id: string; name: string; sort: number; articles: number };

// ================================================================ back office (content.write)

export type ContentTexts = { en: string; zh: string; ft: string };

/** One entry with every language, as the back office edits it. */
export type AdminContentData = {
  id: string;
  kind: ContentKind;
  state: ContentState;
  title: ContentTexts;
  summary: ContentTexts;
  body: ContentTexts;
  category_id: string | null;
  image_url: string | null;
  link: string | null;
  sort: number;
  /** When it became (or becomes, when scheduled) public; null for a draft never published. */
  published_at: number | null;
  demo: boolean;
  created_at: number;
  updated_at: number;
};

export type AdminCategoryData = {
  id: string;
  name: ContentTexts;
  sort: number;
  created_at: number;
  updated_at: number;
};

const texts = (max: number) =>
  Type.Object(
    {
      en: Type.String({ maxLength: max }),
      zh: Type.String({ maxLength: max }),
      ft: Type.String({ maxLength: max }),
    },
    { additionalProperties: false },
  );
const nullableUrl = Type.Union([Type.String({ maxLength: CONTENT_LIMITS.urlMax }), Type.Null()]);
const entryFields = {
  kind: Type.Union(CONTENT_KINDS.map((k) => Type.Literal(k))),
  title: texts(CONTENT_LIMITS.titleMax * 2),
  summary: Type.Optional(texts(CONTENT_LIMITS.summaryMax * 2)),
  body: texts(CONTENT_LIMITS.bodyMax * 2),
  category_id: Type.Optional(Type.Union([Type.String({ maxLength: 40 }), Type.Null()])),
  image_url: Type.Optional(nullableUrl),
  link: Type.Optional(nullableUrl),
  sort: Type.Optional(Type.Integer()),
};

/** `GET admin/content/articles` → Paged<AdminContentData>. */
export const AdminContentListQuery = Type.Object(
  {
    ...CommonFields,
    kind: Type.Optional(Type.Union(CONTENT_KINDS.map((k) => Type.Literal(k)))),
    state: Type.Optional(Type.Union(CONTENT_STATES.map((s) => Type.Literal(s)))),
    page: Type.Optional(digits(6)),
    page_size: Type.Optional(digits(3)),
  },
  { additionalProperties: false },
);
export type AdminContentListQuery = Static<typeof AdminContentListQuery>;

/** `GET admin/content/article` → AdminContentData. */
export const AdminContentIdQuery = Type.Object(
  { ...CommonFields, id: Type.String({ minLength: 1, maxLength: CONTENT_LIMITS.idMax }) },
  { additionalProperties: false },
);
export type AdminContentIdQuery = Static<typeof AdminContentIdQuery>;

/** `POST admin/content/articles/create` (audited): a new draft. */
export const AdminContentCreateBody = Type.Object(
  { ...CommonFields, ...entryFields },
  { additionalProperties: false },
);
export type AdminContentCreateBody = Static<typeof AdminContentCreateBody>;

/** `POST admin/content/articles/update` (audited): the named fields of one entry. */
export const AdminContentUpdateBody = Type.Object(
  {
    ...CommonFields,
    id: Type.String({ minLength: 1, maxLength: CONTENT_LIMITS.idMax }),
    kind: Type.Optional(entryFields.kind),
    title: Type.Optional(entryFields.title),
    summary: entryFields.summary,
    body: Type.Optional(entryFields.body),
    category_id: entryFields.category_id,
    image_url: entryFields.image_url,
    link: entryFields.link,
    sort: entryFields.sort,
  },
  { additionalProperties: false },
);
export type AdminContentUpdateBody = Static<typeof AdminContentUpdateBody>;

/** `POST admin/content/articles/publish` (audited): now, or at `publish_at` (ms, in the future). */
export const AdminContentPublishBody = Type.Object(
  {
    ...CommonFields,
    id: Type.String({ minLength: 1, maxLength: CONTENT_LIMITS.idMax }),
    publish_at: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
    reason: Type.Optional(Type.String({ maxLength: CONTENT_LIMITS.reasonMax })),
  },
  { additionalProperties: false },
);
export type AdminContentPublishBody = Static<typeof AdminContentPublishBody>;

/** `POST admin/content/articles/unpublish` (audited, with a reason). */
export const AdminContentUnpublishBody = Type.Object(
  {
    ...CommonFields,
    id: Type.String({ minLength: 1, maxLength: CONTENT_LIMITS.idMax }),
    reason: Type.String({ maxLength: CONTENT_LIMITS.reasonMax }),
  },
  { additionalProperties: false },
);
export type AdminContentUnpublishBody = Static<typeof AdminContentUnpublishBody>;

/** `POST admin/content/preview` → `{ html }`: markdown rendered through the customers' sanitizer. */
export const AdminContentPreviewBody = Type.Object(
  { ...CommonFields, markdown: Type.String({ maxLength: CONTENT_LIMITS.bodyMax * 2 }) },
  { additionalProperties: false },
);
export type AdminContentPreviewBody = Static<typeof AdminContentPreviewBody>;
export type AdminContentPreviewData = { html: string };

/** `POST admin/content/categories/create` and `…/update` (audited). */
export const AdminCategoryBody = Type.Object(
  {
    ...CommonFields,
    id: Type.String({ maxLength: 40 }),
    name: texts(CONTENT_LIMITS.categoryNameMax * 2),
    sort: Type.Optional(Type.Integer()),
  },
  { additionalProperties: false },
);
export type AdminCategoryBody = Static<typeof AdminCategoryBody>;

/** `POST admin/content/categories/delete`: an empty category (no article of any state in it), with a reason. */
export const AdminCategoryDeleteBody = Type.Object(
  { ...CommonFields, id: Type.String({ maxLength: 40 }), reason: Type.String({ maxLength: 500 }) },
  { additionalProperties: false },
);
export type AdminCategoryDeleteBody = Static<typeof AdminCategoryDeleteBody>;

export const AdminCategoriesQuery = Type.Object({ ...CommonFields }, { additionalProperties: false });
export type AdminCategoriesQuery = Static<typeof AdminCategoriesQuery>;
