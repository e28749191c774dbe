// Boundary rules, checked in CI by `npm run boundaries` (docs/architecture.md, "Allowed arrows").
// Rules for server modules and web features are generated from the folders, so a new module or
// feature is covered the day it is created.
const { readdirSync } = require('node:fs');

const dirs = (path) =>
  readdirSync(path, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

const MODULES = 'apps/server/src/modules';
const FEATURES = 'apps/web/src/features';
// Tests and test helpers may reach inside a module to set up a case.
const TEST_SUPPORT = ['\\.test\\.tsx?$', '/testing\\.ts$', '^apps/server/test/'];
const SCHEMA_FILES = ['tables\\.ts$', 'migrations(\\.ts|/index\\.ts)$'];

const moduleRules = dirs(MODULES).flatMap((name) => [
  {
    name: `module-internals:${name}`,
    comment: `Only ${MODULES}/${name}/index.ts is public: other modules and app code import that file, never what is behind it.`,
    severity: 'error',
    from: { pathNot: [`^${MODULES}/${name}/`, '^apps/server/src/db/', ...TEST_SUPPORT] },
    to: { path: `^${MODULES}/${name}/`, pathNot: `^${MODULES}/${name}/index\\.ts$` },
  },
  {
    name: `module-schema:${name}`,
    comment: `apps/server/src/db assembles the schema from each module's tables.ts and migrations, and reads nothing else behind ${name}/index.ts.`,
    severity: 'error',
    from: { path: '^apps/server/src/db/' },
    to: {
      path: `^${MODULES}/${name}/`,
      pathNot: [
        `^${MODULES}/${name}/index\\.ts$`,
        ...SCHEMA_FILES.map((file) => `^${MODULES}/${name}/${file}`),
      ],
    },
  },
]);

const featureRules = dirs(FEATURES).map((name) => ({
  name: `feature-to-feature:${name}`,
  comment: `Web features do not import each other; a part two features share lives in apps/web/src/shared or packages/ui. Only the route table (apps/web/src/app) mounts ${name}.`,
  severity: 'error',
  from: { path: '^apps/web/src/', pathNot: [`^${FEATURES}/${name}/`, '^apps/web/src/app/'] },
  to: { path: `^${FEATURES}/${name}/` },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'An import cycle ties modules into one; break it by moving the shared part down.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'app-to-app',
      comment: 'One app never imports another; what they share is a package.',
      severity: 'error',
      from: { path: '^apps/([^/]+)/' },
      to: { path: '^apps/', pathNot: '^apps/$1/' },
    },
    {
      name: 'package-to-app',
      comment: 'Packages are the bottom layer: they never import an app.',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^apps/' },
    },
    {
      name: 'web-shared-stays-shared',
      comment: 'apps/web/src/shared, lib and components are below the features and import none of them.',
      severity: 'error',
      from: { path: '^apps/web/src/(shared|lib|components|api|config)/' },
      to: { path: `^${FEATURES}/` },
    },
    ...moduleRules,
    ...featureRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|data)/' },
    tsPreCompilationDeps: true,
    parser: 'swc',
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
