import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkDeps, importsOf } from './check-deps.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

describe('workspace dependencies (scripts/check-deps.ts)', () => {
  it('this repository: every @bourse/* import declared, no optional dependency imported statically', () => {
    expect(checkDeps(ROOT)).toEqual([]);
  });

  it('ccxt is an optional dependency of the server, loaded only by its feed', () => {
    const server = JSON.parse(fs.readFileSync(path.join(ROOT, 'apps/server/package.json'), 'utf8'));
    expect(server.optionalDependencies).toHaveProperty('ccxt');
    expect(server.dependencies).not.toHaveProperty('ccxt');
  });

  it('reads static, type-only, re-export and dynamic imports, not comments or relative paths', () => {
    const found = importsOf(
      [
        "import { a } from '@bourse/money';",
        "import type { B } from '@bourse/protocol/sub';",
        "export * from '@bourse/risk';",
        "import '@bourse/ui';",
        "const c = await import('ccxt');",
        "// import { d } from '@bourse/i18n';",
        "/* import x from '@bourse/proof'; */",
        "import { e } from './local.ts';",
        "import fs from 'node:fs';",
      ].join('\n'),
    );
    expect([...found.static].sort()).toEqual([
      '@bourse/money',
      '@bourse/protocol',
      '@bourse/risk',
      '@bourse/ui',
    ]);
    expect([...found.dynamic]).toEqual(['ccxt']);
  });

  describe('on a made-up workspace', () => {
    let dir = '';
    afterEach(() => {
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    function workspace(files: Record<string, string>): string {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-deps-'));
      for (const [name, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        fs.writeFileSync(path.join(dir, name), text);
      }
      return dir;
    }
    const pkg = (json: object) => JSON.stringify(json);

    it('names each undeclared import, and the section it belongs in', () => {
      const root = workspace({
        'package.json': pkg({ name: 'root', workspaces: ['packages/*', 'apps/*'] }),
        'packages/a/package.json': pkg({ name: '@bourse/a' }),
        'packages/b/package.json': pkg({ name: '@bourse/b', devDependencies: { '@bourse/a': '0.1.0' } }),
        'packages/b/src/index.ts': "import { x } from '@bourse/a';\n",
        'packages/b/src/index.test.ts': "import { x } from '@bourse/a';\n",
        'apps/c/package.json': pkg({ name: '@bourse/c', dependencies: { '@bourse/a': '0.1.0' } }),
        'apps/c/src/main.ts': "import { x } from '@bourse/a';\nimport { y } from '@bourse/b';\n",
        'e2e/flow.e2e.ts': "import { x } from '@bourse/a';\n",
      });
      expect(checkDeps(root)).toEqual([
        {
          file: 'packages/b/src/index.ts',
          pkg: '@bourse/b',
          problem: "imports @bourse/a, not in @bourse/b's dependencies",
        },
        {
          file: 'apps/c/src/main.ts',
          pkg: '@bourse/c',
          problem: "imports @bourse/b, not in @bourse/c's dependencies",
        },
        { file: 'e2e/flow.e2e.ts', pkg: 'root', problem: "imports @bourse/a, not in root's devDependencies" },
      ]);
    });

    it('refuses a static import of an optional dependency; a dynamic one is how it is loaded', () => {
      const root = workspace({
        'package.json': pkg({ name: 'root', workspaces: ['apps/*'] }),
        'apps/s/package.json': pkg({ name: '@bourse/s', optionalDependencies: { ccxt: '^4' } }),
        'apps/s/src/feed.ts': "const ccxt = await import('ccxt');\n",
        'apps/s/src/other.ts': "import ccxt from 'ccxt';\n",
      });
      expect(checkDeps(root)).toEqual([
        {
          file: 'apps/s/src/other.ts',
          pkg: '@bourse/s',
          problem:
            'imports the optional dependency ccxt statically: load it with await import() where it is needed',
        },
      ]);
    });
  });
});
