import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { trespasses } from './check-tables.ts';

const root = new URL('..', import.meta.url).pathname;
const depcruise = join(root, 'node_modules/.bin/depcruise');
const config = join(root, '.dependency-cruiser.cjs');

/** A tiny tree laid out like the repository, to show the rules fail a deliberately broken import. */
function fixture(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'boundaries-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  made.push(dir);
  return dir;
}
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function cruise(dir: string): { ok: boolean; output: string } {
  try {
    const output = execFileSync(depcruise, ['apps', '--config', config, '--output-type', 'err'], {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return { ok: true, output };
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

const base = {
  'apps/server/src/modules/spot/index.ts': "export { place } from './service.ts';\n",
  'apps/server/src/modules/spot/service.ts': 'export const place = () => 1;\n',
  'apps/server/src/modules/ledger/index.ts': "export { post } from './service.ts';\n",
  'apps/server/src/modules/ledger/service.ts': 'export const post = () => 2;\n',
  'apps/web/src/features/market/Page.tsx': 'export const Page = () => null;\n',
  'apps/web/src/features/spot/Page.tsx': 'export const Page = () => null;\n',
  'apps/web/src/app/routes.tsx':
    "import { Page as M } from '../features/market/Page.tsx';\nimport { Page as S } from '../features/spot/Page.tsx';\nexport const routes = [M, S];\n",
};

describe('the boundary rules (npm run boundaries, in CI)', () => {
  it('pass a tree that keeps them: modules through index.ts, features mounted by app/', () => {
    const ok = fixture({
      ...base,
      'apps/server/src/modules/spot/uses-ledger.ts':
        "import { post } from '../ledger/index.ts';\nexport const x = post;\n",
    });
    const result = cruise(ok);
    expect(result.output).toContain('no dependency violations found');
    expect(result.ok).toBe(true);
  }, 60_000);

  it('fail a deliberately broken import: behind another module index, feature to feature, a cycle', () => {
    const broken = fixture({
      ...base,
      'apps/server/src/modules/spot/uses-ledger.ts':
        "import { post } from '../ledger/service.ts';\nexport const x = post;\n",
      'apps/web/src/features/spot/Chart.tsx':
        "import { Page } from '../market/Page.tsx';\nexport const C = Page;\n",
      'apps/server/src/lib/a.ts': "import { b } from './b.ts';\nexport const a = () => b;\n",
      'apps/server/src/lib/b.ts': "import { a } from './a.ts';\nexport const b = () => a;\n",
    });
    const result = cruise(broken);
    expect(result.ok).toBe(false);
    expect(result.output).toContain('module-internals:ledger');
    expect(result.output).toContain('feature-to-feature:market');
    expect(result.output).toContain('no-cycles');
  }, 60_000);
});

describe('table ownership (scripts/check-tables.ts, in CI)', () => {
  it('every table is used only by the module that declares it', () => {
    expect(trespasses()).toEqual([]);
  });
});

describe('every server module has the same rooms', () => {
  const modules = join(root, 'apps/server/src/modules');
  // Modules that offer no HTTP calls of their own: the ledger (staff reach it through the back office)
  // and notify (the back office lists its outbox).
  const NO_ROUTES = new Set(['ledger', 'notify']);
  // A dialect over other modules' services: botapi speaks Binance's REST over spot, market and the
  // ledger; it owns no table (no repo.ts) and its routes compose its parts (market-data.ts, trading.ts,
  // stream.ts) directly, so it has no service.ts either.
  const NO_SERVICE = new Set(['botapi']);
  for (const name of readdirSync(modules)) {
    const own = NO_SERVICE.has(name) ? [] : ['service.ts', 'repo.ts'];
    it(`${name}: ${['index.ts', ...own, 'README.md'].join(', ')}${NO_ROUTES.has(name) ? '' : ', routes.ts'}`, () => {
      const rooms = ['index.ts', ...own, 'README.md', ...(NO_ROUTES.has(name) ? [] : ['routes.ts'])];
      expect(rooms.filter((room) => !existsSync(join(modules, name, room)))).toEqual([]);
    });
  }
});
