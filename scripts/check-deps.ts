/**
 * Every import of a workspace package (`@bourse/*`) is declared by the package that makes it, and
 * no optional dependency is imported statically (it must be loadable only where it is needed, with
 * `await import()`, so the platform runs without it).
 *
 * - A workspace (`apps/*`, `packages/*`) declares what its source imports in `dependencies`; what only
 *   its tests import (`*.test.ts(x)`, `test/`, `e2e/`) may be in `devDependencies`.
 * - The root package (e2e/, bench/, scripts/) declares in `devDependencies`: it ships nothing.
 *
 * `node scripts/check-deps.ts` prints each problem and exits 1; `scripts/check-deps.test.ts` runs it
 * in the test suite.
 */
import fs from 'node:fs';
import path from 'node:path';

export type DepProblem = { file: string; pkg: string; problem: string };

type PackageJson = {
  name?: string;
  workspaces?: string[];
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};

const SOURCE = /\.(?:[cm]?[jt]sx?)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', '.git', '.tmp', 'coverage']);
const STATIC_IMPORT = /(?:^|[\s;}])(?:import|export)\s+(?:type\s+)?(?:[^'"`;]*?\sfrom\s+)?['"]([^'"]+)['"]/g;
const DYNAMIC_IMPORT = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

function readJson(file: string): PackageJson {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as PackageJson;
}

/** The workspace directories named by the root's `workspaces` globs (only `dir/*` forms). */
function workspaceDirs(root: string, globs: readonly string[]): string[] {
  const dirs: string[] = [];
  for (const glob of globs) {
    const base = glob.endsWith('/*') ? glob.slice(0, -2) : glob;
    if (base === glob) {
      if (fs.existsSync(path.join(root, base, 'package.json'))) dirs.push(base);
      continue;
    }
    const parent = path.join(root, base);
    if (!fs.existsSync(parent)) continue;
    for (const entry of fs
      .readdirSync(parent, { withFileTypes: true })
      .sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (entry.isDirectory() && fs.existsSync(path.join(parent, entry.name, 'package.json')))
        dirs.push(path.join(base, entry.name));
    }
  }
  return dirs;
}

function* sourceFiles(dir: string, exclude: ReadonlySet<string>): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (SKIP_DIRS.has(entry.name) || exclude.has(full)) continue;
      yield* sourceFiles(full, exclude);
    } else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      yield full;
    }
  }
}

/** The package a specifier names (`@scope/name/sub` → `@scope/name`, `name/sub` → `name`). */
function packageOf(specifier: string): string | null {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? null);
}

function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

export function importsOf(text: string): { static: Set<string>; dynamic: Set<string> } {
  const code = stripComments(text);
  const found = { static: new Set<string>(), dynamic: new Set<string>() };
  for (const [, spec] of code.matchAll(STATIC_IMPORT)) {
    const pkg = packageOf(spec as string);
    if (pkg) found.static.add(pkg);
  }
  for (const [, spec] of code.matchAll(DYNAMIC_IMPORT)) {
    const pkg = packageOf(spec as string);
    if (pkg) found.dynamic.add(pkg);
  }
  return found;
}

function isTestFile(relative: string): boolean {
  return (
    /\.test\.[cm]?[jt]sx?$/.test(relative) ||
    /(^|\/)(test|e2e|fixtures)\//.test(relative) ||
    /(^|\/)testing\.[jt]sx?$/.test(relative)
  );
}

export function checkDeps(root: string): DepProblem[] {
  const rootJson = readJson(path.join(root, 'package.json'));
  const dirs = workspaceDirs(root, rootJson.workspaces ?? []);
  const workspaceNames = new Set(dirs.map((dir) => readJson(path.join(root, dir, 'package.json')).name));
  const problems: DepProblem[] = [];
  const units = [
    ...dirs.map((dir) => ({ dir: path.join(root, dir), isRoot: false, exclude: new Set<string>() })),
    { dir: root, isRoot: true, exclude: new Set(dirs.map((dir) => path.join(root, dir))) },
  ];
  for (const unit of units) {
    const json = readJson(path.join(unit.dir, 'package.json'));
    const deps = new Set(Object.keys({ ...json.dependencies, ...json.peerDependencies }));
    const devDeps = new Set(Object.keys(json.devDependencies ?? {}));
    const optional = new Set(Object.keys(json.optionalDependencies ?? {}));
    const pkg = json.name ?? path.relative(root, unit.dir);
    for (const file of sourceFiles(unit.dir, unit.exclude)) {
      const relative = path.relative(unit.dir, file).split(path.sep).join('/');
      const shown = path.relative(root, file).split(path.sep).join('/');
      const found = importsOf(fs.readFileSync(file, 'utf8'));
      for (const name of [...found.static, ...found.dynamic]) {
        if (!workspaceNames.has(name) || name === json.name) continue;
        const declared =
          unit.isRoot || isTestFile(relative) ? deps.has(name) || devDeps.has(name) : deps.has(name);
        if (declared) continue;
        const where = unit.isRoot || isTestFile(relative) ? 'devDependencies' : 'dependencies';
        problems.push({ file: shown, pkg, problem: `imports ${name}, not in ${pkg}'s ${where}` });
      }
      for (const name of found.static) {
        if (optional.has(name))
          problems.push({
            file: shown,
            pkg,
            problem: `imports the optional dependency ${name} statically: load it with await import() where it is needed`,
          });
      }
    }
  }
  return problems;
}

if (import.meta.main) {
  const root = path.resolve(import.meta.dirname, '..');
  const problems = checkDeps(root);
  // One line per package and problem: the first file, and how many more.
  const grouped = new Map<string, DepProblem[]>();
  for (const p of problems) grouped.set(p.problem, [...(grouped.get(p.problem) ?? []), p]);
  for (const [problem, list] of grouped) {
    const more = list.length > 1 ? ` (and ${list.length - 1} more files)` : '';
    console.error(`${list[0]?.file}${more}: ${problem}`);
  }
  if (problems.length > 0) process.exit(1);
  console.log('workspace dependencies: every import declared, no optional dependency imported statically');
}
