import { CONTENT_LIMITS } from '@bourse/protocol';
import type { Db, Tx } from '../../db/database.ts';
import { refuse } from '../../http/refusal.ts';
import type { Clock } from '../../lib/clock.ts';
import type { CategoryInput } from './input.ts';
import {
  type CategoryRow,
  countInCategory,
  deleteCategory,
  findCategory,
  insertCategory,
  listCategories,
  updateCategory,
} from './repo.ts';
import { checkCategoryId, checkNames, checkSort } from './validate.ts';

/** Help categories: a short, hand-kept list (at most CONTENT_LIMITS.categoriesMax), names in three languages. */
export function createCategories(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  return {
    list: (q: Db | Tx = db) => listCategories(q),

    /** A new category; its id is a readable slug that never changes. Returns the stored row (the audit's `after`). */
    async create(
      input: CategoryInput,
      q: Db | Tx = db,
      options: { demo?: boolean } = {},
    ): Promise<CategoryRow> {
      const id = checkCategoryId(input.id, 'id');
      const name = checkNames(input.name);
      const sort = checkSort(input.sort);
      if (await findCategory(q, id)) refuse('CONTENT_CATEGORY_EXISTS', { category: id });
      if ((await listCategories(q)).length >= CONTENT_LIMITS.categoriesMax)
        refuse('LIMIT_TOO_LARGE', { field: 'id', max: CONTENT_LIMITS.categoriesMax });
      const now = clock.now();
      const row: CategoryRow = {
        id,
        name_en: name.en,
        name_zh: name.zh,
        name_ft: name.ft,
        sort,
        demo: options.demo ?? false,
        created_at: now,
        updated_at: now,
      };
      await insertCategory(q, row);
      return row;
    },

    /** New names and sort for a category. Returns before and after (for the audit). */
    async update(input: CategoryInput, q: Db | Tx = db) {
      const id = checkCategoryId(input.id, 'id');
      const name = checkNames(input.name);
      const sort = checkSort(input.sort);
      const before = await findCategory(q, id, { forUpdate: true });
      if (!before) refuse('NOT_FOUND');
      const set = { name_en: name.en, name_zh: name.zh, name_ft: name.ft, sort, updated_at: clock.now() };
      await updateCategory(q, id, set);
      return { before, after: { ...before, ...set } };
    },

    /** Deletes an empty category (an article of any state in it: CONTENT_CATEGORY_IN_USE). Returns the row (the audit's `before`). */
    async remove(idText: string, q: Db | Tx = db): Promise<CategoryRow> {
      const id = checkCategoryId(idText, 'id');
      const before = await findCategory(q, id, { forUpdate: true });
      if (!before) refuse('NOT_FOUND');
      const count = await countInCategory(q, id);
      if (count > 0) refuse('CONTENT_CATEGORY_IN_USE', { category: id, articles: count });
      await deleteCategory(q, id);
      return before;
    },
  };
}

export type Categories = ReturnType<typeof createCategories>;
