import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { Refusal } from '../../http/refusal.ts';
import { adminCall, staffSession } from '../staff/testing.ts';
import { renderMarkdown, unsafeMarkup } from './markdown.ts';
import { type ContentInput, createContent } from './service.ts';

let t: TestApp;
let content: ReturnType<typeof createContent>;
beforeAll(async () => {
  t = await startTestApp({ feedTickMs: 0 });
  content = createContent({ db: t.db, clock: t.clock });
  await content.categories.create({
    id: 'deposits',
    name: { en: 'Deposits', zh: '充值', ft: '充值' },
    sort: 2,
  });
  await content.categories.create({
    id: 'account',
    name: { en: 'Account', zh: '账户', ft: '賬戶' },
    sort: 1,
  });
});
afterAll(async () => t.close());

const get = (name: string, fields: Record<string, string> = {}) =>
  call(t.app, { method: 'GET', call: name, fields });

const help = (over: Partial<ContentInput> = {}): ContentInput => ({
  kind: 'help',
  category_id: 'deposits',
  title: { en: 'How long does a withdrawal take?', zh: '提现需要多长时间？', ft: '提現需要多長時間？' },
  body: {
    en: 'Withdrawals are **reviewed** first.',
    zh: '提现会先经过**审核**，通常三十分钟内到账。',
    ft: '提現會先經過**審核**，通常三十分鐘內到帳。',
  },
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

describe('content: markdown is sanitized on write and on render', () => {
  it('renders markdown to HTML without scripts, event handlers or javascript: links', () => {
    const html = renderMarkdown(
      '# Title\n\n**bold** [app](/market) [x](https://example.com)\n\n<script>alert(1)</script>\n\n<img src="https://e.com/a.png" onerror="alert(1)"><a href="javascript:alert(2)" onclick="steal()">t</a><iframe src="https://evil.example"></iframe>',
    );
    expect(html).toContain('<h1>Title</h1>');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<a href="/market">app</a>');
    expect(html).toContain('rel="noopener noreferrer nofollow"');
    expect(html).not.toMatch(/<script|alert\(1\)|onerror|onclick|javascript:|<iframe/i);
    expect(renderMarkdown('[x](javascript:alert(1))')).not.toMatch(/href="javascript/i);
    expect(renderMarkdown('[x](//evil.example)')).not.toContain('evil.example"');
  });

  it('names what cannot be stored: raw HTML and unsafe links', () => {
    expect(
      unsafeMarkup('Plain **markdown** with [a link](/help) and [another](https://x.com) 中文'),
    ).toBeNull();
    expect(unsafeMarkup('<script>alert(1)</script>')).toBe('html');
    expect(unsafeMarkup('hello <b onmouseover="x()">b</b>')).toBe('html');
    expect(unsafeMarkup('[x](javascript:alert(1))')).toBe('link');
    expect(unsafeMarkup('[x](JaVaScRiPt:alert(1))')).toBe('link');
    expect(unsafeMarkup('[r]: javascript:alert(1)\n\n[a][r]')).toBe('link');
    expect(unsafeMarkup('![i](data:image/png;base64,AAAA)')).toBe('link');
  });

  it('refuses dangerous markup by field and writes nothing', async () => {
    const before = await count();
    const cases: Array<[ContentInput, string]> = [
      [help({ body: { ...help().body, zh: '<script>alert(1)</script>' } }), 'body_zh'],
      [help({ body: { ...help().body, ft: '[點我](javascript:alert(1))' } }), 'body_ft'],
      [help({ body: { ...help().body, en: '<img src=x onerror=alert(1)>' } }), 'body_en'],
      [help({ summary: { en: '<a onclick="x()">s</a>', zh: '', ft: '' } }), 'summary_en'],
    ];
    for (const [input, field] of cases) {
      const r = await refusal(() => content.createArticle(input));
      expect(r.reason, field).toBe('CONTENT_MARKUP_REFUSED');
      expect(r.params, field).toEqual({ field });
    }
    const row = await content.createArticle(help());
    const r = await refusal(() =>
      content.updateArticle(row.id, { body: { ...help().body, en: '<script>x</script>' } }),
    );
    expect(r.params).toEqual({ field: 'body_en' });
    expect(await count()).toBe(before + 1);
    const stored = await t.db
      .selectFrom('content_item')
      .selectAll()
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual(row);
  });

  it('serves a row written some other way rendered through the sanitizer', async () => {
    const row = await content.createArticle(help());
    await t.db
      .updateTable('content_item')
      .set({ body_en: 'Hi <script>alert(1)</script><a href="javascript:alert(1)">x</a>' })
      .where('id', '=', row.id)
      .execute();
    await content.publish(row.id);
    const one = await get('getArticle', { id: row.id, lang: 'en' });
    expect(one.status).toBe(200);
    expect(one.data.body_html).not.toMatch(/<script|javascript:/i);
    expect(one.data.body_html).toContain('Hi');
  });
});

describe('content: kinds, help categories and help articles', () => {
  it('needs a known category for help and refuses one elsewhere, by field, writing nothing', async () => {
    const before = await count();
    expect((await refusal(() => content.createArticle(help({ category_id: null })))).params).toEqual({
      field: 'category_id',
    });
    expect((await refusal(() => content.createArticle(help({ category_id: 'nowhere' })))).reason).toBe(
      'CONTENT_CATEGORY_UNKNOWN',
    );
    expect(
      (await refusal(() => content.createArticle(help({ kind: 'about', category_id: 'deposits' })))).params,
    ).toEqual({ field: 'category_id' });
    expect((await refusal(() => content.createArticle(help({ category_id: 'Bad Id!' })))).params).toEqual({
      field: 'category_id',
    });
    expect(await count()).toBe(before);
  });

  it('lists help categories in order with their visible article counts, in the asked language', async () => {
    const row = await content.createArticle(help({ category_id: 'account' }));
    const counts = async () =>
      Object.fromEntries(
        (
          (await get('getHelpCategories', { lang: 'ft' })).data as Array<{ id: string; articles: number }>
        ).map((c) => [c.id, c.articles]),
      );
    const before = (await counts()).account ?? 0;
    await content.publish(row.id);
    const list = await get('getHelpCategories', { lang: 'ft' });
    expect(list.data.map((c: { id: string }) => c.id)).toEqual(['account', 'deposits']);
    expect(list.data[0].name).toBe('賬戶');
    expect((await counts()).account).toBe(before + 1);
    const articles = await get('getTextsList', { kind: 'help', category: 'account', lang: 'zh' });
    expect(articles.data.items.map((a: { id: string }) => a.id)).toContain(row.id);
    expect(articles.data.items[0]).toMatchObject({ kind: 'help', category_id: 'account' });
    expect(articles.data.items[0].body_html).toContain('<strong>审核</strong>');
  });

  it('serves about, security, benefit and generic texts by kind; the default list stays the news flash', async () => {
    const ids: Record<string, string> = {};
    for (const kind of ['about', 'security', 'benefit', 'text'] as const) {
      const row = await content.createArticle({ ...help(), kind, category_id: null });
      await content.publish(row.id);
      ids[kind] = row.id;
    }
    for (const kind of ['about', 'security', 'benefit', 'text']) {
      const list = await get('getTextsList', { kind });
      expect(list.data.items.map((a: { id: string }) => a.id)).toEqual([ids[kind]]);
    }
    const flash = await get('getTextsList');
    expect(
      flash.data.items.every((a: { kind: string }) => a.kind === 'news' || a.kind === 'announcement'),
    ).toBe(true);
    expect((await get('getArticle', { id: ids.text as string })).data.kind).toBe('text');
  });
});

describe('content: scheduled publishing on the injected clock', () => {
  it('keeps a scheduled entry invisible until the clock reaches its time, then shows it', async () => {
    const row = await content.createArticle(help({ kind: 'news', category_id: null }));
    const at = t.clock.now().getTime() + 3_600_000;
    const { after } = await content.publish(row.id, t.db, { publish_at: at });
    expect(after.status).toBe('published');
    const visible = async () => {
      const list = await get('getTextsList', { kind: 'news', page_size: '50' });
      return list.data.items.some((a: { id: string }) => a.id === row.id);
    };
    expect(await visible()).toBe(false);
    expect((await get('getArticle', { id: row.id })).reason).toBe('NOT_FOUND');
    expect(
      (await get('searchContent', { q: '提现需要', lang: 'zh' })).data.items.map((a: { id: string }) => a.id),
    ).not.toContain(row.id);
    t.clock.advance(3_600_000 - 1);
    expect(await visible()).toBe(false);
    t.clock.advance(1);
    expect(await visible()).toBe(true);
    expect((await get('getArticle', { id: row.id })).data.published_at).toBe(at);
  });

  it('refuses a schedule in the past or more than 366 days ahead, changing nothing', async () => {
    const row = await content.createArticle(help({ kind: 'news', category_id: null }));
    const now = t.clock.now().getTime();
    for (const at of [now - 1, now, now + 367 * 86_400_000]) {
      const r = await refusal(() => content.publish(row.id, t.db, { publish_at: at }));
      expect(r.params).toEqual({ field: 'publish_at' });
    }
    const stored = await t.db
      .selectFrom('content_item')
      .selectAll()
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(stored.status).toBe('draft');
  });
});

describe('content: search in the asked language (Chinese too)', () => {
  let zhOnly: string;
  beforeAll(async () => {
    const row = await content.createArticle({
      kind: 'help',
      category_id: 'account',
      title: { en: 'Setting up Google Authenticator', zh: '设置谷歌验证器', ft: '設定谷歌驗證器' },
      body: {
        en: 'Scan the QR code. 100% of logins need the code_.',
        zh: '扫描二维码，输入六位验证码即可完成绑定。',
        ft: '掃描 QR 碼，輸入六位驗證碼即可完成綁定。',
      },
    });
    await content.publish(row.id);
    zhOnly = row.id;
    const draft = await content.createArticle({
      kind: 'help',
      category_id: 'account',
      title: { en: 'Draft', zh: '草稿验证器', ft: '草稿驗證器' },
      body: { en: 'x', zh: '验证器草稿', ft: '驗證器草稿' },
    });
    expect(draft.status).toBe('draft');
  });

  const ids = (answer: { data: { items: Array<{ id: string }> } }) => answer.data.items.map((a) => a.id);

  it('finds simplified Chinese words inside titles and bodies, drafts never', async () => {
    const byTitle = await get('searchContent', { q: '谷歌', lang: 'zh' });
    expect(ids(byTitle)).toEqual([zhOnly]);
    expect(byTitle.data.items[0].title).toBe('设置谷歌验证器');
    expect(ids(await get('searchContent', { q: '六位验证码', lang: 'zh' }))).toEqual([zhOnly]);
    // The draft's title says 草稿验证器: drafts are never found.
    expect(ids(await get('searchContent', { q: '草稿', lang: 'zh' }))).toEqual([]);
  });

  it('finds traditional Chinese in ft, and only in the asked language', async () => {
    expect(ids(await get('searchContent', { q: '驗證碼', lang: 'ft' }))).toEqual([zhOnly]);
    // The simplified form is not the traditional one.
    expect(ids(await get('searchContent', { q: '验证码', lang: 'ft' }))).toEqual([]);
    expect(ids(await get('searchContent', { q: '驗證碼', lang: 'zh' }))).toEqual([]);
    expect(ids(await get('searchContent', { q: 'qr code', lang: 'en' }))).toEqual([zhOnly]);
  });

  it('treats % and _ as themselves, and refuses an empty or over-long search, never a 500', async () => {
    expect(ids(await get('searchContent', { q: '100%', lang: 'en' }))).toEqual([zhOnly]);
    expect(ids(await get('searchContent', { q: '%', lang: 'en' }))).toEqual([zhOnly]);
    expect(ids(await get('searchContent', { q: 'code_', lang: 'en' }))).toEqual([zhOnly]);
    expect(ids(await get('searchContent', { q: '_', lang: 'zh' }))).toEqual([]);
    expect(await get('searchContent', { q: '   ', lang: 'zh' })).toMatchObject({
      status: 400,
      reason: 'BAD_INPUT',
    });
    expect(await get('searchContent', { lang: 'zh' })).toMatchObject({ status: 400 });
    expect(await get('searchContent', { q: 'x'.repeat(65) })).toMatchObject({ status: 400 });
    expect(await get('searchContent', { q: 'x', kind: 'banner' })).toMatchObject({ status: 400 });
    expect(await get('searchContent', { q: 'x', page_size: '999' })).toMatchObject({ status: 400 });
    expect(await get('getTextsList', { kind: 'help', category: '../x' })).toMatchObject({ status: 400 });
    expect(await get('getHelpCategories', { extra: '1' })).toMatchObject({ status: 400 });
  });
});

describe('content: the back office (content.write, audited)', () => {
  const entry = {
    kind: 'help',
    category_id: 'deposits',
    title: { en: 'Deposit networks', zh: '充值网络', ft: '充值網路' },
    body: { en: 'Choose the **network** first.', zh: '先选择**网络**。', ft: '先選擇**網路**。' },
  };

  it('creates, previews, schedules, publishes and unpublishes with an audit record for each change', async () => {
    const token = (await staffSession(t, ['content'])).token;
    const support = (await staffSession(t, ['support'])).token;
    expect((await adminCall(t.app, { method: 'GET', call: 'content/articles', token: support })).reason).toBe(
      'FORBIDDEN',
    );
    const created = await adminCall(t.app, {
      call: 'content/articles/create',
      token,
      fields: entry as never,
    });
    expect(created.data).toMatchObject({ state: 'draft', kind: 'help', category_id: 'deposits' });
    const id = created.data.id as string;

    const preview = await adminCall(t.app, {
      call: 'content/preview',
      token,
      fields: { markdown: '**b** <script>alert(1)</script>' },
    });
    expect(preview.data.html).toContain('<strong>b</strong>');
    expect(preview.data.html).not.toContain('<script');

    const at = t.clock.now().getTime() + 60_000;
    const scheduled = await adminCall(t.app, {
      call: 'content/articles/publish',
      token,
      fields: { id, publish_at: at } as never,
    });
    expect(scheduled.data.state).toBe('scheduled');
    const listed = await adminCall(t.app, {
      method: 'GET',
      call: 'content/articles',
      token,
      fields: { kind: 'help', state: 'scheduled' },
    });
    expect(listed.data.items.map((a: { id: string }) => a.id)).toEqual([id]);

    const noReason = await adminCall(t.app, {
      call: 'content/articles/unpublish',
      token,
      fields: { id, reason: ' ' },
    });
    expect(noReason).toMatchObject({ reason: 'FIELD_REQUIRED', params: { field: 'reason' } });
    const bad = await adminCall(t.app, {
      call: 'content/articles/update',
      token,
      fields: { id, body: { ...entry.body, zh: '<script>x</script>' } } as never,
    });
    expect(bad).toMatchObject({ reason: 'CONTENT_MARKUP_REFUSED', params: { field: 'body_zh' } });
    const unpublished = await adminCall(t.app, {
      call: 'content/articles/unpublish',
      token,
      fields: { id, reason: 'wrong network names' },
    });
    expect(unpublished.data.state).toBe('draft');

    const audit = await t.db
      .selectFrom('staff_audit')
      .select(['action', 'reason', 'target_id'])
      .where('target_id', '=', id)
      .orderBy('seq')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['content.create', 'content.schedule', 'content.unpublish']);
    expect(audit[2]?.reason).toBe('wrong network names');
  });

  it('manages categories (audited) and answers bad input by field, never a 500', async () => {
    const token = (await staffSession(t, ['content'])).token;
    const made = await adminCall(t.app, {
      call: 'content/categories/create',
      token,
      fields: { id: 'trading', name: { en: 'Trading', zh: '交易', ft: '交易' }, sort: 3 } as never,
    });
    expect(made.data).toMatchObject({ id: 'trading', sort: 3 });
    const again = await adminCall(t.app, {
      call: 'content/categories/create',
      token,
      fields: { id: 'trading', name: { en: 'T', zh: 'T', ft: 'T' } } as never,
    });
    expect(again.reason).toBe('CONTENT_CATEGORY_EXISTS');
    const noName = await adminCall(t.app, {
      call: 'content/categories/update',
      token,
      fields: { id: 'trading', name: { en: 'Trading', zh: '', ft: '交易' } } as never,
    });
    expect(noName).toMatchObject({ reason: 'BAD_INPUT', params: { field: 'name_zh' } });
    const list = await adminCall(t.app, { method: 'GET', call: 'content/categories', token });
    expect(list.data.items.map((c: { id: string }) => c.id)).toEqual(['account', 'deposits', 'trading']);
    for (const [callName, fields] of [
      ['content/articles/create', { kind: 'poster' }],
      ['content/articles/create', { ...entry, sort: -1 }],
      ['content/articles/publish', { id: 'cnt_nope' }],
      ['content/articles/publish', { id: 'x', publish_at: 'soon' }],
      ['content/categories/create', { id: 'Bad Id', name: { en: 'a', zh: 'a', ft: 'a' } }],
    ] as const) {
      const answer = await adminCall(t.app, { call: callName, token, fields: fields as never });
      expect(answer.status, callName).toBeLessThan(500);
      expect(answer.reason, callName).toBeDefined();
    }
    const audit = await t.db
      .selectFrom('staff_audit')
      .select('action')
      .where('action', 'like', 'content.category.%')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['content.category.create']);
  });

  it('deletes an empty category with a reason (audited); one holding articles of any state is refused', async () => {
    const token = (await staffSession(t, ['content'])).token;
    const del = (fields: Record<string, string>) =>
      adminCall(t.app, { call: 'content/categories/delete', token, fields: fields as never });
    await adminCall(t.app, {
      call: 'content/categories/create',
      token,
      fields: { id: 'spare', name: { en: 'Spare', zh: '备用', ft: '備用' } } as never,
    });
    const draft = await content.createArticle(help({ category_id: 'spare' }));
    expect(await del({ id: 'spare', reason: 'unused' })).toMatchObject({
      reason: 'CONTENT_CATEGORY_IN_USE',
      params: { category: 'spare', articles: 1 },
    });
    await t.db.deleteFrom('content_item').where('id', '=', draft.id).execute();
    expect(await del({ id: 'spare', reason: ' ' })).toMatchObject({ reason: 'FIELD_REQUIRED' });
    expect(await del({ id: 'spare', reason: 'unused' })).toMatchObject({ code: 1, data: { id: 'spare' } });
    expect(await del({ id: 'spare', reason: 'unused' })).toMatchObject({ reason: 'NOT_FOUND' });
    const list = await adminCall(t.app, { method: 'GET', call: 'content/categories', token });
    expect(list.data.items.map((c: { id: string }) => c.id)).not.toContain('spare');
    const audit = await t.db
      .selectFrom('staff_audit')
      .select(['action', 'reason'])
      .where('action', '=', 'content.category.delete')
      .execute();
    expect(audit).toEqual([{ action: 'content.category.delete', reason: 'unused' }]);
  });
});
