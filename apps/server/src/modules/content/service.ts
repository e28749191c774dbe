import {
  ARTICLE_KINDS,
  CONTENT_KINDS,
  CONTENT_LIMITS,
  type ContentData,
  type ContentKind,
  type ContentPage,
  type Lang,
} from '@bourse/protocol';
import { sql } from 'kysely';
import type { Db, Tx } from '../../db/database.ts';
import { refuse } from '../../http/refusal.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { DEMO_CONTENT } from './demo.ts';
import type { ContentInput, ContentPatch, Texts } from './input.ts';

export type { ContentInput, ContentPatch } from './input.ts';

import { type ContentRow, countItems, findItem, insertItem, listPublished, updateItem } from './repo.ts';

const LANGS = ['en', 'zh', 'ft'] as const;

/** An app path (`/market`, `/info?id=…`) or an absolute http(s) address; nothing else (no `javascript:`). */
const LINK = /^(\/[A-Za-z0-9_\-/?=&.%#]*|https?:\/\/[^\s"'<>]+)$/;

function check(ok: boolean, field: string): void {
  if (!ok) refuse('BAD_INPUT', { field });
}

function checkTexts(value: unknown, field: string, max: number, required: boolean): Texts {
  check(typeof value === 'object' && value !== null, field);
  const texts = value as Record<string, unknown>;
  for (const lang of LANGS) {
    const text = texts[lang];
    check(typeof text === 'string', `${field}_${lang}`);
    const trimmed = (text as string).trim();
    check(trimmed.length <= max && (!required || trimmed.length > 0), `${field}_${lang}`);
  }
  return { en: String(texts.en).trim(), zh: String(texts.zh).trim(), ft: String(texts.ft).trim() };
}

function checkUrl(value: unknown, field: string): string | null {
  if (value === undefined || value === null || value === '') return null;
  check(typeof value === 'string' && value.length <= CONTENT_LIMITS.urlMax && LINK.test(value), field);
  return value as string;
}

function checkSort(value: unknown): number {
  if (value === undefined) return 0;
  check(
    typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= CONTENT_LIMITS.sortMax,
    'sort',
  );
  return value as number;
}

/** Validates a whole entry (create) — or the fields a patch names — into columns. */
function columnsOf(input: ContentPatch, whole: boolean): Partial<ContentRow> {
  const out: Partial<ContentRow> = {};
  if (whole || input.kind !== undefined) {
    check((CONTENT_KINDS as readonly unknown[]).includes(input.kind), 'kind');
    out.kind = input.kind as string;
  }
  const put = (field: 'title' | 'summary' | 'body', texts: Texts) => {
    for (const lang of LANGS) (out as Record<string, string>)[`${field}_${lang}`] = texts[lang];
  };
  if (whole || input.title !== undefined)
    put('title', checkTexts(input.title, 'title', CONTENT_LIMITS.titleMax, true));
  if (input.summary !== undefined)
    put('summary', checkTexts(input.summary, 'summary', CONTENT_LIMITS.summaryMax, false));
  if (whole || input.body !== undefined)
    put('body', checkTexts(input.body, 'body', CONTENT_LIMITS.bodyMax, true));
  if (input.image_url !== undefined) out.image_url = checkUrl(input.image_url, 'image_url');
  if (input.link !== undefined) out.link = checkUrl(input.link, 'link');
  if (whole || input.sort !== undefined) out.sort = checkSort(input.sort);
  return out;
}

export function contentData(row: ContentRow, lang: Lang): ContentData {
  const r = row as unknown as Record<string, string>;
  return {
    id: row.id,
    kind: row.kind as ContentKind,
    title: r[`title_${lang}`] ?? row.title_en,
    summary: r[`summary_${lang}`] ?? row.summary_en,
    body: r[`body_${lang}`] ?? row.body_en,
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

export type Content = ReturnType<typeof createContent>;

/**
 * Banners and articles. Customers read published entries (`banners`, `articles`, `article`); the
 * back office writes through `createArticle`, `updateArticle`, `publish` and `unpublish`, passing
 * its own transaction so the audit record lands with the change (http/staff.ts).
 */
export function createContent(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  async function change(q: Db | Tx, id: string, patch: (row: ContentRow) => Partial<ContentRow>) {
    const run = async (tx: Db | Tx) => {
      const before = await findItem(tx, id, { forUpdate: true });
      if (!before) refuse('NOT_FOUND');
      const set = { ...patch(before), updated_at: clock.now() };
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
    const now = clock.now();
    const row = {
      id: newId('cnt', now.getTime()),
      summary_en: '',
      summary_zh: '',
      summary_ft: '',
      image_url: null,
      link: null,
      ...columnsOf(input, true),
      status: 'draft',
      published_at: null,
      demo: options.demo ?? false,
      created_at: now,
      updated_at: now,
    } as ContentRow;
    await insertItem(q, row);
    return row;
  }

  return {
    async banners(lang: Lang): Promise<ContentData[]> {
      const { rows } = await listPublished(db, {
        kinds: ['banner'],
        offset: 0,
        limit: CONTENT_LIMITS.bannersMax,
      });
      return rows.map((row) => contentData(row, lang));
    },

    async articles(input: {
      lang: Lang;
      kind?: string;
      page?: string;
      page_size?: string;
    }): Promise<ContentPage> {
      const page = pageNumber(input.page, { field: 'page', fallback: 1, max: 1_000_000 });
      const pageSize = pageNumber(input.page_size, {
        field: 'page_size',
        fallback: CONTENT_LIMITS.articlesPageSizeDefault,
        max: CONTENT_LIMITS.articlesPageSizeMax,
      });
      const kinds = input.kind ? [input.kind] : [...ARTICLE_KINDS];
      const { total, rows } = await listPublished(db, {
        kinds,
        offset: (page - 1) * pageSize,
        limit: pageSize,
      });
      return { total, page, page_size: pageSize, items: rows.map((row) => contentData(row, input.lang)) };
    },

    /** One published entry of any kind (a banner's detail too); a draft or unknown id is NOT_FOUND. */
    async article(input: { lang: Lang; id: string }): Promise<ContentData> {
      const row = await findItem(db, input.id);
      if (row?.status !== 'published') refuse('NOT_FOUND');
      return contentData(row, input.lang);
    },

    createArticle,

    /** Changes the named fields; a published entry stays published. Returns before and after (for the audit). */
    updateArticle(id: string, patch: ContentPatch, q: Db | Tx = db) {
      const columns = columnsOf(patch, false);
      return change(q, id, () => columns);
    },

    /** Makes an entry visible; the first publish stamps `published_at`, a later one keeps it. */
    publish(id: string, q: Db | Tx = db) {
      return change(q, id, (row) => ({ status: 'published', published_at: row.published_at ?? clock.now() }));
    },

    unpublish(id: string, q: Db | Tx = db) {
      return change(q, id, () => ({ status: 'draft' }));
    },

    /** DEMO_CONTENT: the operator's sample banners and news, once, into an empty table. */
    async seedDemo(): Promise<number> {
      return db.transaction().execute(async (tx) => {
        // Two processes starting together must not both seed: one waits for the other's lock.
        await sql`select pg_advisory_xact_lock(hashtext('content_item.seed'))`.execute(tx);
        if ((await countItems(tx)) > 0) return 0;
        const start = clock.now().getTime();
        let n = 0;
        for (const entry of DEMO_CONTENT) {
          const row = await createArticle(entry, tx, { demo: true });
          await updateItem(tx, row.id, {
            status: 'published',
            published_at: new Date(start - entry.ageHours * 3_600_000),
          });
          n += 1;
        }
        return n;
      });
    },
  };
}
