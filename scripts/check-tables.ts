/**
 * Table ownership: a module's tables (declared in its `tables.ts`, named `<module>_…`) are read and
 * written only by that module's own code; everyone else asks the module (docs/architecture.md,
 * "Allowed arrows"). Scans the server's sources, outside tests and test helpers, for a table name
 * used as a string literal in another module's code (query builder calls and raw SQL alike).
 * `node scripts/check-tables.ts`: exit 1 and one line per use when any is found.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const server = join(root, 'apps/server/src');
const modulesDir = join(server, 'modules');

/** The tables each module declares: the keys of the type in its tables.ts. */
export function tableOwners(): Map<string, string> {
  const owners = new Map<string, string>();
  for (const module of readdirSync(modulesDir)) {
    const file = join(modulesDir, module, 'tables.ts');
    let source: string;
    try {
      source = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const match of source.matchAll(/^\s{2}([a-z][a-z0-9_]*):/gm)) {
      const table = match[1] as string;
      if (table.startsWith(`${module}_`)) owners.set(table, module);
    }
  }
  return owners;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    if (!/\.ts$/.test(name) || /\.test\.ts$|(^|\/)testing\.ts$/.test(name)) return [];
    return [path];
  });
}

/** Which module a source file belongs to; null for the app's own plumbing outside modules/. */
function moduleOf(file: string): string | null {
  const rel = relative(modulesDir, file);
  return rel.startsWith('..') ? null : (rel.split('/')[0] as string);
}

/** A table named where a query uses it: Kysely's builder calls, and raw SQL's from / join / update / into. */
const QUERY_PATTERNS = [
  /\b(?:selectFrom|insertInto|updateTable|deleteFrom|innerJoin|leftJoin|rightJoin|fullJoin|mergeInto|with)\(\s*['"`]([a-z][a-z0-9_]*)/g,
  /\b(?:from|join|update|into)\s+([a-z][a-z0-9_]*)\b/gi,
];

export type Trespass = { file: string; line: number; table: string; owner: string };

export function trespasses(): Trespass[] {
  const owners = tableOwners();
  const found: Trespass[] = [];
  for (const file of sources(server)) {
    const rel = relative(root, file);
    // The schema is assembled in db/ from every module's table types and migrations.
    if (rel.startsWith('apps/server/src/db/')) continue;
    const here = moduleOf(file);
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((text, index) => {
      if (/^\s*(\/\/|\*|\/\*)/.test(text)) return; // comments name tables freely
      for (const pattern of QUERY_PATTERNS) {
        for (const match of text.matchAll(pattern)) {
          const table = match[1] as string;
          const owner = owners.get(table);
          if (owner && owner !== here) found.push({ file: rel, line: index + 1, table, owner });
        }
      }
    });
  }
  return found;
}

if (import.meta.main) {
  const found = trespasses();
  for (const t of found)
    console.log(`${t.file}:${t.line}  uses ${t.table}, a table of the ${t.owner} module`);
  console.log(
    found.length === 0
      ? 'table ownership: every table is used only by the module that declares it'
      : `table ownership: ${found.length} uses of another module's table`,
  );
  process.exit(found.length === 0 ? 0 : 1);
}
