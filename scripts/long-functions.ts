/**
 * Lists the longest functions in the TypeScript sources (apps and packages, tests excluded), for the
 * structure rule "no function over ~80 lines without a reason" (docs/architecture.md).
 * `node scripts/long-functions.ts [limit] [--over N] [--own]`; --own sorts by a function's lines without
 * the functions nested in it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseSync } from '@swc/core';

/** lines: the whole span; own: without the functions nested in it (a factory's own body). */
type Found = { file: string; name: string; line: number; lines: number; own: number };

const roots = ['apps/server/src', 'apps/web/src', 'apps/admin/src', 'packages'];
const skip = /(^|\/)(node_modules|dist)(\/|$)|\.test\.tsx?$|\.d\.ts$/;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (skip.test(path)) return [];
    if (statSync(path).isDirectory()) return files(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

function lineOf(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] as number) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

function measure(file: string): Found[] {
  const source = readFileSync(file, 'utf8');
  const bytes = Buffer.from(source);
  const starts = [0];
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 10) starts.push(i + 1);
  const ast = parseSync(source, { syntax: 'typescript', tsx: file.endsWith('.tsx') });
  // swc offsets are global across calls; this file's module starts at ast.span.start.
  const base = ast.span.start;
  const found: Found[] = [];
  const visit = (node: unknown, name: string, parent: Found | undefined): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const child of node) visit(child, name, parent);
      return;
    }
    const n = node as Record<string, unknown> & { type?: string; span?: { start: number; end: number } };
    let here = name;
    if (n.type === 'VariableDeclarator' && (n.id as { value?: string })?.value)
      here = (n.id as { value: string }).value;
    if (
      (n.type === 'FunctionDeclaration' || n.type === 'ClassMethod' || n.type === 'MethodProperty') &&
      n.span
    ) {
      const key = (n.identifier ?? n.key) as { value?: string } | undefined;
      if (key?.value) here = key.value;
    }
    if (n.type === 'KeyValueProperty' && (n.key as { value?: string })?.value)
      here = String((n.key as { value: string }).value);
    const isFunction = [
      'FunctionDeclaration',
      'FunctionExpression',
      'ArrowFunctionExpression',
      'ClassMethod',
      'MethodProperty',
    ].includes(n.type ?? '');
    let inside = parent;
    if (isFunction && n.span) {
      const first = lineOf(starts, n.span.start - base);
      const last = lineOf(starts, n.span.end - base - 1);
      const lines = last - first + 1;
      inside = { file, name: here || '(anonymous)', line: first, lines, own: lines };
      if (parent) parent.own -= lines;
      found.push(inside);
    }
    for (const [key, value] of Object.entries(n))
      if (key !== 'span' && value && typeof value === 'object') visit(value, here, inside);
  };
  visit(ast.body, '', undefined);
  return found;
}

const args = process.argv.slice(2);
const overAt = args.indexOf('--over');
const over = overAt >= 0 ? Number(args[overAt + 1]) : undefined;
const limit = Number(args.find((a, i) => /^\d+$/.test(a) && (overAt < 0 || i !== overAt + 1)) ?? 20);
const byOwn = args.includes('--own');
const size = (f: Found) => (byOwn ? f.own : f.lines);
const all = roots
  .flatMap(files)
  .flatMap(measure)
  .sort((a, b) => size(b) - size(a));
const shown = over === undefined ? all.slice(0, limit) : all.filter((f) => size(f) > over);
console.log('lines   own  where  name');
for (const f of shown)
  console.log(`${String(f.lines).padStart(5)} ${String(f.own).padStart(5)}  ${f.file}:${f.line}  ${f.name}`);
if (over !== undefined) console.log(`${shown.length} functions over ${over} ${byOwn ? 'own ' : ''}lines`);
