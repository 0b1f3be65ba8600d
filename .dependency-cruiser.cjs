/**
 * Bookie's architecture rules (docs/architecture.md), checked by `npm run archcheck`.
 * @type {import('dependency-cruiser').IConfiguration}
 */
const SERVER = '^packages/server/src/';
/** Tests and test-only harnesses (`*.testing.ts`): entry points of a kind, like main.ts. */
const TEST = '\\.(test|testing)\\.ts$';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import circle in any package (type-only imports included): dependencies point one way.',
      from: { path: '^packages/[^/]+/src/' },
      to: { circular: true },
    },
    {
      name: 'no-app-below-app',
      severity: 'error',
      comment:
        'app/ is the composition root: only the entry points (main.ts, index.ts, cli/) and tests import it. ' +
        'Modules, http, db, platform and the test helpers get what they need as parameters.',
      from: { path: `${SERVER}(modules|http|db|platform|testing)/`, pathNot: TEST },
      to: { path: `${SERVER}app/` },
    },
    {
      name: 'routes-only-from-app',
      severity: 'error',
      comment:
        "A routes plugin is registered by app/ (with its module's deps) and imported by its tests; no other file " +
        "imports it but a routes plugin of the same module that composes its sub-folders' plugins.",
      from: { path: SERVER, pathNot: [`${SERVER}app/`, TEST, `${SERVER}modules/[^/]+/.+\\.routes\\.ts$`] },
      to: { path: '\\.routes\\.ts$' },
    },
    {
      name: 'routes-within-module',
      severity: 'error',
      comment: 'A routes plugin imports only routes plugins of its own module.',
      from: { path: `${SERVER}modules/([^/]+)/.+\\.routes\\.ts$` },
      to: { path: '\\.routes\\.ts$', pathNot: `${SERVER}modules/$1/` },
    },
    {
      name: 'sql-only-in-repositories',
      severity: 'error',
      comment:
        'SQL lives in repositories (*.repo.ts), db/ (migrations, schema) and the test helpers. Other files take ' +
        "the database's types (Executor, Database, row types) from db/, never from kysely.",
      from: {
        path: SERVER,
        pathNot: ['\\.repo\\.ts$', `${SERVER}db/`, `${SERVER}testing/`, TEST],
      },
      to: { path: '(^|/)node_modules/kysely/' },
    },
    {
      name: 'module-through-index',
      severity: 'error',
      comment:
        "A module imports another module only through that module's public surface, modules/<name>/index.ts.",
      from: { path: `${SERVER}modules/([^/]+)/`, pathNot: TEST },
      to: {
        path: `${SERVER}modules/[^/]+/`,
        pathNot: [`${SERVER}modules/$1/`, `${SERVER}modules/[^/]+/index\\.ts$`],
      },
    },
  ],
  options: {
    includeOnly: { path: ['^packages/[^/]+/src/', '(^|/)node_modules/kysely/'] },
    exclude: { path: ['^packages/[^/]+/dist/'] },
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    detectJSDocImports: false,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['bookie-source', 'import', 'types', 'default'],
      mainFields: ['module', 'main', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.d.ts'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
