import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { Refusal } from '../../http/refusal.ts';
import { DEMO_CONTENT } from './demo.ts';
import { DEMO_CATEGORIES, DEMO_HELP } from './demo-help.ts';
import { type ContentInput, createContent } from './service.ts';

let t: TestApp;
let content: ReturnType<typeof createContent>;
beforeAll(async () => {
  t = await startTestApp({ feedTickMs: 0 });
  content = createContent({ db: t.db, clock: t.clock });
});
afterAll(async () => t.close());

const get = (name: string, fields: Record<string, string> = {}) =>
  call(t.app, { method: 'GET', call: name, fields });

const texts = (en: string) => ({ en, zh: `${en}（简）`, ft: `${en}（繁）` });
const sample = (over: Partial<ContentInput> = {}): ContentInput => ({
  kind: 'news',
  title: texts('Title'),
  body: texts('Body text'),
  ...over,
});

async function refusal(work: () => Promise<unknown>): Promise<Refusal> {
  try {
    await work();
  } catch (error) {
    if (error instanceof Refusal) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

async function count(): Promise<number> {
  const row = await t.db
    .selectFrom('content_item')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('content: customers see published entries only', () => {
  it('shows honest empty lists before anything is published', async () => {
    expect((await get('getBanners')).data).toEqual([]);
    expect((await get('getTextsList')).data).toMatchObject({ total: 0, items: [] });
  });

  it('keeps a draft out of every public call, and shows it once published, in the asked language', async () => {
    const draft = await content.createArticle(sample({ title: texts('Market update') }));
    expect(draft.status).toBe('draft');
    expect((await get('getTextsList')).data.total).toBe(0);
    const hidden = await get('getArticle', { id: draft.id });
    expect(hidden).toMatchObject({ status: 404, reason: 'NOT_FOUND' });

    t.clock.advance(1_000);
    const { before, after } = await content.publish(draft.id);
    expect(before.status).toBe('draft');
    expect(after.status).toBe('published');
    const list = await get('getTextsList', { lang: 'zh' });
    expect(list.data.total).toBe(1);
    expect(list.data.items[0]).toMatchObject({ id: draft.id, title: 'Market update（简）', kind: 'news' });
    const one = await get('getArticle', { id: draft.id, lang: 'ft' });
    expect(one.data).toMatchObject({ title: 'Market update（繁）', body: 'Body text（繁）' });
    expect(one.data.published_at).toBe(t.clock.now().getTime());

    await content.unpublish(draft.id);
    expect((await get('getArticle', { id: draft.id })).reason).toBe('NOT_FOUND');
    await content.publish(draft.id);
    // A re-publish keeps the first publication time.
    expect((await get('getArticle', { id: draft.id })).data.published_at).toBe(after.published_at?.getTime());
  });

  it('lists banners apart from articles, lower sort first', async () => {
    const second = await content.createArticle(sample({ kind: 'banner', sort: 2, link: '/market' }));
    const first = await content.createArticle(
      sample({ kind: 'banner', sort: 1, image_url: 'https://cdn.example.com/a.png' }),
    );
    await content.publish(second.id);
    await content.publish(first.id);
    const banners = await get('getBanners');
    expect(banners.data.map((b: { id: string }) => b.id)).toEqual([first.id, second.id]);
    expect(banners.data[1].link).toBe('/market');
    const articles = await get('getTextsList');
    expect(articles.data.items.every((a: { kind: string }) => a.kind !== 'banner')).toBe(true);
    // A banner's detail page reads it through getArticle.
    expect((await get('getArticle', { id: first.id })).data.image_url).toBe('https://cdn.example.com/a.png');
  });

  it('updates a published entry in place', async () => {
    const row = await content.createArticle(sample({ kind: 'announcement' }));
    await content.publish(row.id);
    const { after } = await content.updateArticle(row.id, { title: texts('Corrected') });
    expect(after.title_en).toBe('Corrected');
    expect((await get('getArticle', { id: row.id, lang: 'en' })).data.title).toBe('Corrected');
    expect(
      (await get('getTextsList', { kind: 'announcement' })).data.items.map((a: { id: string }) => a.id),
    ).toEqual([row.id]);
  });
});

describe('content: bad input changes nothing', () => {
  it('refuses entries missing a language, with a bad link or kind, and writes nothing', async () => {
    const before = await count();
    const cases: Array<[ContentInput, string]> = [
      [sample({ title: { en: 'Only English', zh: '', ft: '' } }), 'title_zh'],
      [sample({ body: { en: 'x', zh: 'x' } as ContentInput['body'] }), 'body_ft'],
      [sample({ title: texts('x'.repeat(200)) }), 'title_en'],
      [sample({ link: 'javascript:alert(1)' }), 'link'],
      [sample({ image_url: 'ftp://example.com/a.png' }), 'image_url'],
      [sample({ kind: 'poster' as ContentInput['kind'] }), 'kind'],
      [sample({ sort: -1 }), 'sort'],
      [sample({ sort: 1.5 }), 'sort'],
    ];
    for (const [input, field] of cases) {
      const r = await refusal(() => content.createArticle(input));
      expect(r.reason, field).toBe('BAD_INPUT');
      expect(r.params, field).toEqual({ field });
    }
    expect(await count()).toBe(before);
  });

  it('refuses an update with bad fields and leaves the row as it was; unknown ids are NOT_FOUND', async () => {
    const row = await content.createArticle(sample());
    const r = await refusal(() => content.updateArticle(row.id, { link: 'not a link' }));
    expect(r.params).toEqual({ field: 'link' });
    const stored = await t.db
      .selectFrom('content_item')
      .selectAll()
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual(row);
    expect((await refusal(() => content.publish('cnt_unknown'))).reason).toBe('NOT_FOUND');
  });

  it('answers malformed public queries with a clear refusal, never a 500', async () => {
    expect(await get('getTextsList', { page_size: '999' })).toMatchObject({
      status: 400,
      reason: 'BAD_INPUT',
    });
    expect(await get('getTextsList', { page: '0' })).toMatchObject({ status: 400, reason: 'BAD_INPUT' });
    expect(await get('getTextsList', { kind: 'banner' })).toMatchObject({ status: 400 });
    expect(await get('getArticle', {})).toMatchObject({ status: 400 });
    expect(await get('getArticle', { id: 'x'.repeat(100) })).toMatchObject({ status: 400 });
    expect(await get('getBanners', { extra: '1' })).toMatchObject({ status: 400 });
  });
});

describe('content: demo seed', () => {
  it('seeds the sample content once, published, in three languages, marked as demo', async () => {
    const fresh = await startTestApp({ feedTickMs: 0, demoContent: true });
    try {
      const banners = await call(fresh.app, { method: 'GET', call: 'getBanners', fields: { lang: 'zh' } });
      expect(banners.data.length).toBe(DEMO_CONTENT.filter((d) => d.kind === 'banner').length);
      expect(banners.data[0].title).toMatch(/[\u4e00-\u9fff]/);
      const list = await call(fresh.app, { method: 'GET', call: 'getTextsList', fields: { lang: 'ft' } });
      expect(list.data.total).toBe(DEMO_CONTENT.filter((d) => d.kind !== 'banner').length);
      for (const item of list.data.items) expect(item.body).toContain('示例內容');
      const categories = await call(fresh.app, {
        method: 'GET',
        call: 'getHelpCategories',
        fields: { lang: 'zh' },
      });
      expect(categories.data.map((c: { id: string }) => c.id)).toEqual(DEMO_CATEGORIES.map((c) => c.id));
      expect(categories.data.every((c: { articles: number }) => c.articles > 0)).toBe(true);
      for (const kind of ['help', 'about', 'security', 'benefit', 'text']) {
        const entries = await call(fresh.app, {
          method: 'GET',
          call: 'getTextsList',
          fields: { kind, lang: 'ft' },
        });
        expect(entries.data.total, kind).toBe(DEMO_HELP.filter((d) => d.kind === kind).length);
        expect(entries.data.items[0].body_html, kind).toMatch(/<p>.*[\u4e00-\u9fff]/);
      }
      const security = await call(fresh.app, {
        method: 'GET',
        call: 'getTextsList',
        fields: { kind: 'security' },
      });
      expect(security.data.items[0].body).toContain('anti-phishing phrase');
      const seededAgain = await createContent({ db: fresh.db, clock: fresh.clock }).seedDemo();
      expect(seededAgain).toBe(0);
      const demo = await fresh.db.selectFrom('content_item').select('demo').execute();
      expect(demo.length).toBe(DEMO_CONTENT.length + DEMO_HELP.length);
      expect(demo.every((d) => d.demo)).toBe(true);
    } finally {
      await fresh.close();
    }
  });
});
