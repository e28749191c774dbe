import { sql } from 'kysely';
import type { Db, Tx } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Categories } from './categories.ts';
import { DEMO_CONTENT } from './demo.ts';
import { DEMO_CATEGORIES, DEMO_HELP } from './demo-help.ts';
import type { ContentInput } from './input.ts';
import { type ContentRow, findCategory, listCategories, presentKinds, updateItem } from './repo.ts';

/**
 * DEMO_CONTENT: the operator's sample content — banners, news, help categories and articles, about,
 * security advice, a benefit and a generic text — each kind only while the table has none of it, so
 * an install that already had the first sample set gains the help centre and a second run adds
 * nothing. Under an advisory lock: two processes starting together seed once.
 */
export async function seedDemo(deps: {
  db: Db;
  clock: Clock;
  categories: Categories;
  createArticle: (input: ContentInput, q: Db | Tx, options: { demo?: boolean }) => Promise<ContentRow>;
}): Promise<number> {
  const { db, clock, categories, createArticle } = deps;
  return db.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(hashtext('content_item.seed'))`.execute(tx);
    const present = await presentKinds(tx);
    if ((await listCategories(tx)).length === 0)
      for (const category of DEMO_CATEGORIES) await categories.create(category, tx, { demo: true });
    const start = clock.now().getTime();
    let n = 0;
    for (const entry of [...DEMO_CONTENT, ...DEMO_HELP]) {
      if (present.has(entry.kind)) continue;
      // An operator's own categories may not include the sample ones: skip what has nowhere to go.
      if (entry.category_id && !(await findCategory(tx, entry.category_id))) continue;
      const row = await createArticle(entry, tx, { demo: true });
      await updateItem(tx, row.id, {
        status: 'published',
        published_at: new Date(start - entry.ageHours * 3_600_000),
      });
      n += 1;
    }
    return n;
  });
}
