import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

// Two letters in a row is a word; a lone "X" (the network's name) or punctuation is not.
const word = '/[A-Za-z\\u00C0-\\uFFFF]{2,}/';
const textMessage = 'User-visible text lives in the catalogs (engine/rules/i18n/catalogs/, docs/i18n.md): use i18n._() or <Trans id>.';
const userVisibleText = [
  { selector: `JSXText[value=${word}]`, message: textMessage },
  { selector: `:matches(JSXElement, JSXFragment) > JSXExpressionContainer > Literal[value=${word}]`, message: textMessage },
  { selector: `:matches(JSXElement, JSXFragment) > JSXExpressionContainer > TemplateLiteral > TemplateElement[value.raw=${word}]`, message: textMessage },
  {
    selector: `JSXAttribute[name.name=/^(aria-label|aria-description|aria-roledescription|aria-valuetext|title|alt|placeholder|label)$/] > Literal[value=${word}]`,
    message: textMessage,
  },
  { selector: `CallExpression[callee.name='usePageTitle'] > Literal[value=${word}]`, message: textMessage },
  // The mini-app's toasts (§8 messages come from engine/wire/messages.ts and are shown through app.msg.*).
  { selector: `CallExpression[callee.name='notify'] > :matches(Literal[value=${word}], TemplateLiteral):first-child`, message: textMessage },
];

/** One place for the import boundaries of the architecture (README → Layout). */
const forbid = (groups) => ['error', { patterns: groups }];

// The server's layers (docs/architecture.md "Server layout"): the app (app.ts, main.ts, web/, dev/)
// → the routes (the HTTP edge) and background/ (the wiring of the bot, the worker and the jobs)
// → the features → core. Every folder of server/ that is not core, routes, background, web or dev
// is a feature; a route, the wiring or another feature reaches it only through its exports.ts.
const repoRoot = fileURLToPath(new URL('.', import.meta.url));
const serverWiring = ['routes', 'background'];
const serverEdge = [...serverWiring, 'web', 'dev'];
const serverFeatures = readdirSync(new URL('./server/', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name !== 'core' && !serverEdge.includes(d.name))
  .map((d) => d.name);
const oneTransaction = 'Open transactions with transaction() from server/core/db/transaction.ts, the one helper that retries deadlocks and serialisation failures.';
const appFiles = ['server/app.ts', 'server/main.ts', 'server/web', 'server/dev'];
const serverZones = [
  { target: 'server/core', from: 'server', except: ['./core'], message: 'server/core/ sits beneath everything: it imports no feature, route or app file.' },
  { target: 'server/routes', from: appFiles, message: 'The routes are imported by the app, never the other way.' },
  { target: 'server/background', from: ['server/routes', ...appFiles], message: 'background/ is wiring the app starts: it imports no route or app file.' },
  { target: 'server/routes', from: 'server/background', except: ['./exports.ts'], message: 'A route reaches the wiring through server/background/exports.ts.' },
  // The edge and the wiring only map: they call a feature through its exports.ts, never a file inside it.
  ...serverWiring.flatMap((wiring) =>
    serverFeatures.map((feature) => ({
      target: `server/${wiring}`,
      from: `server/${feature}`,
      except: ['./exports.ts'],
      message: `${wiring === 'routes' ? 'A route' : 'The wiring'} reaches a feature through its exports.ts (server/${feature}/exports.ts).`,
    })),
  ),
  ...serverFeatures.flatMap((feature) => [
    { target: `server/${feature}`, from: ['server/routes', 'server/background', ...appFiles], message: 'A feature never imports the routes, the wiring or the app: they call it.' },
    ...serverFeatures
      .filter((other) => other !== feature)
      .map((other) => ({
        target: `server/${feature}`,
        from: `server/${other}`,
        except: ['./exports.ts'],
        message: `Another feature is reached through its exports.ts (server/${other}/exports.ts).`,
      })),
  ]),
];

// engine/'s three rooms (docs/architecture.md "The engine's rooms"): client → wire → rules, and
// client → rules. The rules import nothing of the wire or the client, the wire nothing of the client,
// and the server (which recomputes the rules and speaks the wire) never the client.
const engineZones = [
  { target: 'engine/rules', from: ['engine/wire', 'engine/client'], message: 'engine/rules/ sits beneath the wire and the client: it imports neither.' },
  { target: 'engine/wire', from: 'engine/client', message: 'engine/wire/ is the contract; the client imports it, never the other way.' },
];
const serverEngineZones = [
  { target: 'server', from: 'engine/client', message: 'The server imports engine/rules/ and engine/wire/, never the client engine (engine/client/).' },
];

// The import-x plugin reads TypeScript paths as Node does.
const withImportX = {
  plugins: { 'import-x': importX },
  settings: {
    'import-x/resolver-next': [createNodeResolver()],
    'import-x/extensions': ['.ts'],
    'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
  },
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', 'docs/screenshots/**', 'bench/out/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // engine/ is pure: no src/, server/, React, DOM SDK or Node built-ins, and no ambient clock or randomness.
    files: ['engine/**/*.ts'],
    ignores: ['engine/**/*.test.ts'],
    rules: {
      'no-restricted-imports': forbid([
        { group: ['**/src/**', '**/server/**', '../src', '../server'], message: 'engine/ must not import src/ or server/.' },
        { group: ['react', 'react-dom', 'react/*', '@twa-dev/*', 'fastify', 'pg', '@electric-sql/*', 'grammy'], message: 'engine/ is pure TypeScript.' },
        { group: nodeBuiltins, message: 'engine/ must not use Node built-ins.' },
      ]),
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'Take the time from the injected clock.' },
        { object: 'Math', property: 'random', message: 'Take randomness as an argument.' },
        { object: 'performance', property: 'now', message: 'Take the time from the injected clock.' },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'setTimeout', message: 'Use the injected scheduler.' },
        { name: 'setInterval', message: 'Use the injected scheduler.' },
        { name: 'fetch', message: 'Use the injected transport.' },
      ],
    },
  },
  {
    // The rooms' directions hold for their tests too: a rule's test needs nothing of the client.
    files: ['engine/**/*.ts'],
    ...withImportX,
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: repoRoot, zones: engineZones }] },
  },
  {
    // The adapters give the engine its real clock, scheduler and transport; only they may touch them.
    files: ['engine/client/worker.ts', 'engine/client/adapters/**/*.ts'],
    rules: { 'no-restricted-properties': 'off', 'no-restricted-globals': 'off' },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': forbid([
        { group: ['**/server/**', '../server', '../../server'], message: 'src/ and server/ never import each other.' },
        { group: nodeBuiltins, message: 'src/ runs in the browser.' },
      ]),
    },
  },
  {
    // No user-visible text outside the catalogs (docs/i18n.md): JSX text, text-bearing attributes,
    // page titles and toasts read from engine/rules/i18n/catalogs/. The operator console (src/admin) is
    // English only (docs/decisions/i18n.md).
    files: ['src/site/**/*.{ts,tsx}', 'src/mini-app/**/*.{ts,tsx}', 'src/telegram.ts', 'src/main.tsx'],
    rules: { 'no-restricted-syntax': ['error', ...userVisibleText] },
  },
  {
    files: ['server/**/*.ts'],
    ...withImportX,
    rules: {
      'no-restricted-imports': forbid([
        { group: ['**/src/**', '../src', '../../src', 'react', 'react-dom', '@twa-dev/*'], message: 'src/ and server/ never import each other.' },
      ]),
      'import-x/no-restricted-paths': ['error', { basePath: repoRoot, zones: [...serverZones, ...serverEngineZones] }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // One transaction helper (docs/architecture.md "Transactions"): server/core/db/transaction.ts
    // opens every transaction and retries what PostgreSQL asks to be retried; db.ts implements it,
    // and replica.ts hands a transaction on the social reads' Db to the primary's.
    files: ['server/**/*.ts'],
    ignores: ['server/core/db/db.ts', 'server/core/db/replica.ts', 'server/core/db/transaction.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.type='MemberExpression'][callee.property.name='transaction']", message: oneTransaction },
        { selector: 'Literal[value=/^\\s*(BEGIN|START TRANSACTION)\\b/]', message: oneTransaction },
        { selector: 'TemplateElement[value.raw=/^\\s*(BEGIN|START TRANSACTION)\\b/]', message: oneTransaction },
      ],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js', 'bench/**', 'tests/**', '.ci/**'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
