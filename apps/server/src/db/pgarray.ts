/**
 * PostgreSQL array literals, built once per column: `{"a","b",NULL}`. The ledger sends each column of
 * a batch as ONE text parameter cast in SQL (`$1::text[]`), instead of a JS array the `pg` driver
 * escapes element by element (the larger part of a 1,000-entry batch's JavaScript time).
 *
 * Text elements are always double-quoted, with `"` and `\` backslash-escaped — the array input
 * syntax's only special characters inside quotes — so any string (empty, `NULL`, braces, commas,
 * whitespace, unicode) comes back as itself; JS `null` becomes an unquoted NULL. PostgreSQL text
 * cannot hold U+0000, which the caller must never pass (the server refuses it).
 */

const SPECIAL = /["\\]/;
const SPECIAL_ALL = /["\\]/g;

function quoted(value: string): string {
  return SPECIAL.test(value) ? `"${value.replace(SPECIAL_ALL, '\\$&')}"` : `"${value}"`;
}

/** A `text[]` (or any string-typed array) literal: strings quoted and escaped, null as NULL. */
export function textArray(values: readonly (string | null)[]): string {
  if (values.length === 0) return '{}';
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (i > 0) out += ',';
    out += v === null || v === undefined ? 'NULL' : quoted(v);
  }
  return `${out}}`;
}

/** A `numeric[]` / `int8[]` literal of integers: their decimal digits need no quoting. */
export function integerArray(values: readonly (bigint | number)[]): string {
  if (values.length === 0) return '{}';
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (typeof v === 'number' && !Number.isSafeInteger(v)) throw new TypeError(`not an integer: ${v}`);
    if (i > 0) out += ',';
    out += v.toString();
  }
  return `${out}}`;
}
