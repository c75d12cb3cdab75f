import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import boundaries from 'eslint-plugin-boundaries'
import importX from 'eslint-plugin-import-x'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'
import vitest from '@vitest/eslint-plugin'

/**
 * The floors of src/ (docs/architecture.md): which top-level folder may import which. A folder may
 * import only the folders listed for it; no two folders import each other, so the list is the
 * whole layering. Adding an import across folders means adding it here, where a circle shows.
 */
const LAYERS = {
  contract: [],
  shared: [],
  assertions: ['contract'],
  capacity: [],
  client: ['contract'],
  checks: ['contract', 'shared'],
  store: ['contract', 'shared'],
  lab: ['checks'],
  metrics: ['store'],
  accounts: ['contract', 'shared', 'store'],
  http: ['contract', 'shared', 'store'],
  mcp: ['client', 'contract'],
  runs: ['capacity', 'checks', 'contract', 'metrics', 'store'],
  monitors: ['assertions', 'capacity', 'checks', 'contract', 'metrics', 'runs', 'shared', 'store'],
  'as-code': ['assertions', 'client', 'contract', 'monitors'],
  server: [
    'accounts',
    'capacity',
    'checks',
    'contract',
    'http',
    'metrics',
    'monitors',
    'runs',
    'shared',
    'store',
  ],
  'status-pages': ['contract', 'http', 'monitors', 'server', 'shared', 'store'],
  dashboard: [
    'accounts',
    'assertions',
    'contract',
    'http',
    'monitors',
    'runs',
    'server',
    'shared',
    'status-pages',
    'store',
  ],
  cli: ['assertions', 'client', 'contract', 'monitors', 'server', 'shared'],
  serve: [
    'accounts',
    'assertions',
    'capacity',
    'contract',
    'dashboard',
    'http',
    'lab',
    'metrics',
    'monitors',
    'runs',
    'server',
    'shared',
    'status-pages',
    'store',
  ],
  commands: [
    'accounts',
    'assertions',
    'as-code',
    'cli',
    'client',
    'contract',
    'mcp',
    'monitors',
    'serve',
    'shared',
    'store',
  ],
}

/**
 * Each folder's doors: the files another folder may import (docs/architecture.md, "The floors").
 * Anything else in a folder is its own business; `boundaries/entry-point` holds it.
 */
const DOORS = {
  contract: ['*.ts', 'monitor-types/index.ts'],
  shared: ['index.ts'],
  capacity: ['index.ts'],
  store: [
    '*.ts',
    'rules/*.ts',
    'embedded/index.ts',
    'postgres/index.ts',
    'postgres/import.ts',
    'postgres/url.ts',
  ],
  checks: ['index.ts', 'lab-outcome.ts', 'guard.ts'],
  client: ['client.ts', 'config.ts'],
  assertions: ['index.ts'],
  accounts: ['index.ts'],
  http: ['*.ts'],
  metrics: ['index.ts'],
  lab: ['index.ts'],
  mcp: ['stdio.ts', 'http.ts', 'tools.ts'],
  runs: ['index.ts'],
  monitors: [
    'index.ts',
    'service.ts',
    'ids.ts',
    'interval.ts',
    'names.ts',
    'runtime.ts',
    'views.ts',
    'maintenance/index.ts',
    'uptime/index.ts',
  ],
  server: ['app.ts', 'context.ts', 'guard.ts', 'fast-path.ts', 'owner-file.ts'],
  'as-code': ['index.ts', 'test-run.ts'],
  'status-pages': ['index.ts'],
  dashboard: ['index.ts'],
  cli: ['*.ts', 'render/*.ts'],
  serve: ['index.ts'],
  commands: [],
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'oclif.manifest.json'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  // type-aware: a promise is awaited, returned, or handed to `void` with its rejection handled
  {
    files: ['src/**/*.ts', 'test/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  // every test asserts something: expect(), or a helper of this suite that calls it
  {
    files: ['test/**/*.test.ts'],
    plugins: { vitest },
    rules: {
      'vitest/expect-expect': [
        'error',
        { assertFunctionNames: ['expect', 'expect*', 'expectTypeOf', 'assert*'] },
      ],
    },
  },
  // the layering: no circle of files, and each folder imports only the folders below it
  {
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX, boundaries },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.json' })],
      'import/resolver': { typescript: { project: 'tsconfig.json' } },
      'boundaries/elements': Object.keys(LAYERS).map((type) => ({
        type,
        pattern: `src/${type}`,
        mode: 'folder',
      })),
      'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'boundaries/no-unknown-files': 'error',
      'boundaries/element-types': [
        'error',
        {
          default: 'disallow',
          message:
            '${file.type}/ may not import ${dependency.type}/ (the floors: eslint.config.js, docs/architecture.md)',
          rules: Object.entries(LAYERS).map(([from, allow]) => ({ from: [from], allow })),
        },
      ],
      'boundaries/entry-point': [
        'error',
        {
          default: 'disallow',
          message:
            '${dependency.type}/ is entered through its doors only: ${dependency.internalPath} is not one (eslint.config.js DOORS, docs/architecture.md)',
          rules: Object.entries(DOORS).map(([target, allow]) => ({ target: [target], allow })),
        },
      ],
    },
  },
  // rooms of a human size: every line counts (blank and comment lines too), as scripts/structure-report.mjs counts
  {
    files: ['src/**/*.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 120 }],
      'max-lines': ['error', { max: 500 }],
    },
  },
  // wire shapes and their examples are long lists, not rooms
  { files: ['src/contract/**/*.ts'], rules: { 'max-lines': 'off' } },
)
