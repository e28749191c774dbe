import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/harness.ts';
import { createDb, type Db } from './database.ts';
import { integerArray, textArray } from './pgarray.ts';

/** The literals round-trip through PostgreSQL's own array parser: what goes in comes back. */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let handle: ReturnType<typeof createDb>;
let f: { db: Db };
beforeAll(async () => {
  database = await createTestDatabase();
  handle = createDb(database.url, { max: 2 });
  f = { db: handle.db };
});
afterAll(async () => {
  await handle.db.destroy();
  await database.drop();
});

async function textRoundTrip(values: readonly (string | null)[]): Promise<(string | null)[]> {
  const { rows } = await sql<{ v: string | null }>`
    select v from unnest(${textArray(values)}::text[]) with ordinality as t(v, n) order by n`.execute(f.db);
  return rows.map((r) => r.v);
}

/** Any string PostgreSQL text can hold: no U+0000 (fast-check's full unicode, lone surrogates aside). */
const pgText = fc.string({ unit: 'grapheme', maxLength: 20 }).filter((s) => !s.includes('\u0000'));
const tricky = fc.constantFrom(
  '',
  'NULL',
  'null',
  '"',
  '\\',
  '\\"',
  '"\\',
  '{',
  '}',
  '{}',
  ',',
  ' ',
  ' leading',
  'trailing ',
  '\t\n\r',
  "'",
  'a,b',
  '{"x"}',
  '€',
  '漢字',
  '😀',
  'é',
);

describe('array literals', () => {
  it('text: the empty array, NULLs and the awkward strings by name', async () => {
    expect(textArray([])).toBe('{}');
    expect(await textRoundTrip([])).toEqual([]);
    const named = ['', 'NULL', null, '"', '\\', '\\"', '{', '}', ',', ' x ', '漢字', '😀', "it's", null];
    expect(await textRoundTrip(named)).toEqual(named);
    expect(textArray([null, 'a"b', 'c\\d'])).toBe('{NULL,"a\\"b","c\\\\d"}');
  });

  it('text: any strings and NULLs come back as they went in, in order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(pgText, tricky, fc.constant(null)), { maxLength: 30 }),
        async (values) => {
          expect(await textRoundTrip(values)).toEqual(values);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('integers: bigints of any size NUMERIC(38,0) holds, and int8 numbers', async () => {
    expect(integerArray([])).toBe('{}');
    const units = fc.bigInt({ min: -(10n ** 37n), max: 10n ** 37n });
    await fc.assert(
      fc.asyncProperty(fc.array(units, { maxLength: 30 }), async (values) => {
        const { rows } = await sql<{ v: string }>`
          select v::text as v from unnest(${integerArray(values)}::numeric[]) with ordinality as t(v, n) order by n`.execute(
          f.db,
        );
        expect(rows.map((r) => BigInt(r.v))).toEqual(values);
      }),
      { numRuns: 100 },
    );
    const { rows } = await sql<{ v: string }>`
      select v::text as v from unnest(${integerArray([0, 1, -7, Number.MAX_SAFE_INTEGER])}::int8[]) as v`.execute(
      f.db,
    );
    expect(rows.map((r) => r.v)).toEqual(['0', '1', '-7', String(Number.MAX_SAFE_INTEGER)]);
    expect(() => integerArray([1.5])).toThrow(TypeError);
  });
});
