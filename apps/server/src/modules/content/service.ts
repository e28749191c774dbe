import {
  ARTICLE_KINDS,
  CONTENT_LIMITS,
  type ContentData,
  type ContentKind,
  type ContentPage,
  type HelpCategoryData,
  type Lang,
  LISTED_KINDS,
} from '@bourse/protocol';
import type { Db, Tx } from '../../db/database.ts';
import { refuse } from '../../http/refusal.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { createCategories } from './categories.ts';
import { seedDemo } from './demo-seed.ts';
import type { ContentInput, ContentPatch } from './input.ts';
import { renderMarkdown } from './markdown.ts';
import {
  type ContentRow,
  countHelpByCategory,
  findCategory,
  findItem,
  insertItem,
  listPublished,
  searchPublished,
  updateItem,
} from './repo.ts';
import { checkSchedule, columnsOf, withCategoryRule } from './validate.ts';

export type { CategoryInput, ContentInput, ContentPatch } from './input.ts';

/** A published entry in one language, its markdown body rendered through the sanitizer. */
export function contentData(row: ContentRow, lang: Lang): ContentData {
  const r = row as unknown as Record<string, string>;
  const body = r[`body_${lang}`] ?? row.body_en;
  return {
    id: row.id,
    kind: row.kind as ContentKind,
    title: r[`title_${lang}`] ?? row.title_en,
    summary: r[`summary_${lang}`] ?? row.summary_en,
    body,
    body_html: renderMarkdown(body),
    category_id: row.category_id,
    image_url: row.image_url,
    link: row.link,
    published_at: row.published_at?.getTime() ?? 0,
  };
}

function pageNumber(
  value: string | undefined,
  options: { field: string; fallback: number; max: number },
): number {
  if (value === undefined) return options.fallback;
  const n = Number.parseInt(value, 10);
  if (!(n >= 1 && n <= options.max)) refuse('BAD_INPUT', { field: options.field });
  return n;
}

function paging(input: { page?: string; page_size?: string }, max: number) {
  const page = pageNumber(input.page, { field: 'page', fallback: 1, max: 1_000_000 });
  const pageSize = pageNumber(input.page_size, {
    field: 'page_size',
    fallback: CONTENT_LIMITS.articlesPageSizeDefault,
    max,
  });
  return { page, pageSize, offset: (page - 1) * pageSize };
}

export type Content = ReturnType<typeof createContent>;

/**
 * Banners, articles and help categories. Customers read visible entries (`banners`, `articles`,
 * `article`, `search`, `helpCategories`): published and their time come on the injected clock. The
 * back office writes through `createArticle`, `updateArticle`, `publish`, `unpublish` and the
 * categories, passing its own transaction so the audit record lands with the change (admin.ts).
 */
export function createContent(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  const categories = createCategories({ db, clock });

  async function requireCategory(q: Db | Tx, id: string | null | undefined): Promise<void> {
    if (id && !(await findCategory(q, id))) refuse('CONTENT_CATEGORY_UNKNOWN', { category: id });
  }

  async function change(q: Db | Tx, id: string, patch: (row: ContentRow) => Promise<Partial<ContentRow>>) {
    const run = async (tx: Db | Tx) => {
      const before = await findItem(tx, id, { forUpdate: true });
      if (!before) refuse('NOT_FOUND');
      const set = { ...(await patch(before)), updated_at: clock.now() };
      await updateItem(tx, id, set);
      return { before, after: { ...before, ...set } as ContentRow };
    };
    return q === db ? db.transaction().execute(run) : run(q);
  }

  /** A new draft; customers see nothing until `publish`. Returns the stored row (for the audit's `after`). */
  async function createArticle(
    input: ContentInput,
    q: Db | Tx = db,
    options: { demo?: boolean } = {},
  ): Promise<ContentRow> {
    const columns = columnsOf(input, true);
    const ruled = withCategoryRule(
      { kind: columns.kind as string, category_id: columns.category_id ?? null },
      columns,
    );
    await requireCategory(q, ruled.category_id);
    const now = clock.now();
    const row = {
      id: newId('cnt', now.getTime()),
      summary_en: '',
      summary_zh: '',
      summary_ft: '',
      image_url: null,
      link: null,
      ...ruled,
      category_id: ruled.category_id ?? null,
      status: 'draft',
      published_at: null,
      demo: options.demo ?? false,
      created_at: now,
      updated_at: now,
    } as ContentRow;
    await insertItem(q, row);
    return row;
  }

  /**
   * Makes an entry public now, or at `publish_at` (ms) in the future: customers see it once the clock
   * reaches that time. A re-publish without a schedule keeps the first publication time.
   */
  function publish(id: string, q: Db | Tx = db, options: { publish_at?: number | null } = {}) {
    const now = clock.now();
    const at = checkSchedule(options.publish_at, now.getTime());
    return change(q, id, async (row) => {
      const kept = row.published_at !== null && row.published_at <= now ? row.published_at : now;
      return { status: 'published', published_at: at === null ? kept : new Date(at) };
    });
  }

  return {
    categories,

    async banners(lang: Lang): Promise<ContentData[]> {
      const { rows } = await listPublished(db, {
        kinds: ['banner'],
        now: clock.now(),
        offset: 0,
        limit: CONTENT_LIMITS.bannersMax,
      });
      return rows.map((row) => contentData(row, lang));
    },

    /** One kind (or news and announcements), one help category, paged. */
    async articles(input: {
      lang: Lang;
      kind?: string;
      category?: string;
      page?: string;
      page_size?: string;
    }): Promise<ContentPage> {
      const { page, pageSize, offset } = paging(input, CONTENT_LIMITS.articlesPageSizeMax);
      const kinds = input.kind ? [input.kind] : [...ARTICLE_KINDS];
      const { total, rows } = await listPublished(db, {
        kinds,
        now: clock.now(),
        category: input.category,
        offset,
        limit: pageSize,
      });
      return { total, page, page_size: pageSize, items: rows.map((row) => contentData(row, input.lang)) };
    },

    /** One visible entry of any kind (a banner's detail too); a draft, a future one or an unknown id is NOT_FOUND. */
    async article(input: { lang: Lang; id: string }): Promise<ContentData> {
      const row = await findItem(db, input.id);
      if (row?.status !== 'published' || row.published_at === null || row.published_at > clock.now())
        refuse('NOT_FOUND');
      return contentData(row, input.lang);
    },

    /** Substring search over the asked language's title, summary and body (works for Chinese). */
    async search(input: {
      lang: Lang;
      q: string;
      kind?: string;
      page?: string;
      page_size?: string;
    }): Promise<ContentPage> {
      const text = input.q.trim();
      if (text.length === 0 || text.length > CONTENT_LIMITS.searchMax) refuse('BAD_INPUT', { field: 'q' });
      const { page, pageSize, offset } = paging(input, CONTENT_LIMITS.searchPageSizeMax);
      const { total, rows } = await searchPublished(db, {
        lang: input.lang,
        text,
        kinds: input.kind ? [input.kind] : [...LISTED_KINDS],
        now: clock.now(),
        offset,
        limit: pageSize,
      });
      return { total, page, page_size: pageSize, items: rows.map((row) => contentData(row, input.lang)) };
    },

    /** The help centre's categories in order, each with its visible article count. */
    async helpCategories(lang: Lang): Promise<HelpCategoryData[]> {
      const [rows, counts] = await Promise.all([categories.list(db), countHelpByCategory(db, clock.now())]);
      return rows.map((row) => ({
        id: row.id,
        name: (row as unknown as Record<string, string>)[`name_${lang}`] ?? row.name_en,
        sort: row.sort,
        articles: counts.get(row.id) ?? 0,
      }));
    },

    createArticle,

    /** Changes the named fields; a published entry stays published. Returns before and after (for the audit). */
    updateArticle(id: string, patch: ContentPatch, q: Db | Tx = db) {
      const columns = columnsOf(patch, false);
      return change(q, id, async (row) => {
        const merged = {
          kind: columns.kind ?? row.kind,
          category_id: 'category_id' in columns ? (columns.category_id ?? null) : row.category_id,
        };
        const ruled = withCategoryRule(merged, columns);
        await requireCategory(q, ruled.category_id);
        return ruled;
      });
    },

    publish,

    unpublish(id: string, q: Db | Tx = db) {
      return change(q, id, async () => ({ status: 'draft' }));
    },

    /** DEMO_CONTENT: the operator's sample content, each kind once, into a table without that kind. */
    seedDemo: () => seedDemo({ db, clock, createArticle, categories }),
  };
}
