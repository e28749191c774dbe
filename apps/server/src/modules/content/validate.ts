import { CATEGORY_ID_PATTERN, CONTENT_KINDS, CONTENT_LIMITS, type ContentTexts } from '@bourse/protocol';
import { refuse } from '../../http/refusal.ts';
import type { ContentPatch, Texts } from './input.ts';
import { unsafeMarkup } from './markdown.ts';
import type { ContentRow } from './repo.ts';

/** Pure checks of what staff write: each refusal names the field; nothing here touches the database. */

export const LANGS = ['en', 'zh', 'ft'] as const;

/** An app path (`/market`, `/info?id=…`) or an absolute http(s) address; nothing else (no `javascript:`). */
const LINK = /^(\/[A-Za-z0-9_\-/?=&.%#]*|https?:\/\/[^\s"'<>]+)$/;
const CATEGORY_ID = new RegExp(CATEGORY_ID_PATTERN);

export function check(ok: boolean, field: string): void {
  if (!ok) refuse('BAD_INPUT', { field });
}

export function checkTexts(
  value: unknown,
  options: { field: string; max: number; required: boolean; markdown?: boolean },
): Texts {
  const { field, max } = options;
  check(typeof value === 'object' && value !== null, field);
  const texts = value as Record<string, unknown>;
  for (const lang of LANGS) {
    const text = texts[lang];
    check(typeof text === 'string', `${field}_${lang}`);
    const trimmed = (text as string).trim();
    check(trimmed.length <= max && (!options.required || trimmed.length > 0), `${field}_${lang}`);
    if (options.markdown && unsafeMarkup(trimmed) !== null)
      refuse('CONTENT_MARKUP_REFUSED', { field: `${field}_${lang}` });
  }
  return { en: String(texts.en).trim(), zh: String(texts.zh).trim(), ft: String(texts.ft).trim() };
}

function checkUrl(value: unknown, field: string): string | null {
  if (value === undefined || value === null || value === '') return null;
  check(typeof value === 'string' && value.length <= CONTENT_LIMITS.urlMax && LINK.test(value), field);
  return value as string;
}

export function checkSort(value: unknown, field = 'sort'): number {
  if (value === undefined) return 0;
  check(
    typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= CONTENT_LIMITS.sortMax,
    field,
  );
  return value as number;
}

export function checkCategoryId(value: unknown, field = 'category_id'): string {
  check(typeof value === 'string' && CATEGORY_ID.test(value), field);
  return value as string;
}

/** Validates a whole entry (create) — or the fields a patch names — into columns. */
export function columnsOf(input: ContentPatch, whole: boolean): Partial<ContentRow> {
  const out: Partial<ContentRow> = {};
  if (whole || input.kind !== undefined) {
    check((CONTENT_KINDS as readonly unknown[]).includes(input.kind), 'kind');
    out.kind = input.kind as string;
  }
  const put = (field: 'title' | 'summary' | 'body', texts: Texts) => {
    for (const lang of LANGS) (out as Record<string, string>)[`${field}_${lang}`] = texts[lang];
  };
  if (whole || input.title !== undefined)
    put('title', checkTexts(input.title, { field: 'title', max: CONTENT_LIMITS.titleMax, required: true }));
  if (input.summary !== undefined) {
    const options = { field: 'summary', max: CONTENT_LIMITS.summaryMax, required: false, markdown: true };
    put('summary', checkTexts(input.summary, options));
  }
  if (whole || input.body !== undefined) {
    const options = { field: 'body', max: CONTENT_LIMITS.bodyMax, required: true, markdown: true };
    put('body', checkTexts(input.body, options));
  }
  if (input.category_id !== undefined)
    out.category_id = input.category_id === null ? null : checkCategoryId(input.category_id);
  if (input.image_url !== undefined) out.image_url = checkUrl(input.image_url, 'image_url');
  if (input.link !== undefined) out.link = checkUrl(input.link, 'link');
  if (whole || input.sort !== undefined) out.sort = checkSort(input.sort);
  return out;
}

/**
 * A help article needs a category and nothing else has one: a kind changed away from `help` drops
 * its category; a category on another kind, or a help article without one, is refused.
 */
export function withCategoryRule(
  merged: Pick<ContentRow, 'kind' | 'category_id'>,
  patch: Partial<ContentRow>,
) {
  if (merged.kind === 'help') {
    check(merged.category_id !== null && merged.category_id !== undefined, 'category_id');
    return patch;
  }
  check(patch.category_id === undefined || patch.category_id === null, 'category_id');
  return { ...patch, category_id: null };
}

/** A category's three names, each 1–40 characters. */
export function checkNames(value: unknown): ContentTexts {
  return checkTexts(value, { field: 'name', max: CONTENT_LIMITS.categoryNameMax, required: true });
}

/** A scheduled time: absent or null is now; otherwise after now and at most 366 days ahead. */
export function checkSchedule(value: unknown, nowMs: number): number | null {
  if (value === undefined || value === null) return null;
  check(
    typeof value === 'number' &&
      Number.isSafeInteger(value) &&
      value > nowMs &&
      value <= nowMs + CONTENT_LIMITS.scheduleAheadMaxMs,
    'publish_at',
  );
  return value as number;
}
