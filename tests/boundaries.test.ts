import { ESLint } from 'eslint';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The architecture's import boundaries live in eslint.config.js; these check that they bite.
const eslint = new ESLint({ cwd: new URL('..', import.meta.url).pathname });

const ruleIds = async (code: string, filePath: string): Promise<string[]> => {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
};

const importing = (source: string, name: string) => `import { ${name} } from '${source}';\nexport const probe = ${name};\n`;
const restricted = 'import-x/no-restricted-paths';

describe('import boundaries', () => {
  it('refuses a src → server import', async () => {
    expect(await ruleIds("import { createApp } from '../server/app.ts';\nexport { createApp };\n", 'src/boundary-probe.ts')).toContain('no-restricted-imports');
  });

  it('refuses a server → src import', async () => {
    expect(await ruleIds("import { config } from '../src/config.ts';\nexport { config };\n", 'server/boundary-probe.ts')).toContain('no-restricted-imports');
  });

  it('refuses React, Node built-ins and src/ in engine/', async () => {
    for (const source of ['react', 'node:fs', 'fs', '../src/config.ts', '../server/app.ts']) {
      expect(await ruleIds(`import x from '${source}';\nexport { x };\n`, 'engine/boundary-probe.ts')).toContain('no-restricted-imports');
    }
  });

  it('refuses the ambient clock and randomness in engine/', async () => {
    expect(await ruleIds('export const t = Date.now();\n', 'engine/boundary-probe.ts')).toContain('no-restricted-properties');
    expect(await ruleIds('export const r = Math.random();\n', 'engine/boundary-probe.ts')).toContain('no-restricted-properties');
    expect(await ruleIds('setTimeout(() => 0, 1);\n', 'engine/boundary-probe.ts')).toContain('no-restricted-globals');
  });

  it('lets engine/ import its own modules and decimal.js', async () => {
    expect(await ruleIds("import { economy } from './economy.ts';\nimport D from 'decimal.js';\nexport const x = [economy, D];\n", 'engine/boundary-probe.ts')).toEqual([]);
  });
});

// engine/'s rooms (docs/architecture.md "The engine's rooms"): client → wire → rules, client → rules.
describe('engine rooms', () => {
  it('refuses a rules → wire and a rules → client import, types included', async () => {
    expect(await ruleIds(importing('../wire/refusals.ts', 'refusalMessage'), 'engine/rules/boundary-probe.ts')).toContain(restricted);
    expect(await ruleIds(importing('../client/engine.ts', 'Engine'), 'engine/rules/boundary-probe.ts')).toContain(restricted);
    const typeOnly = "import type { UserStatus } from '../wire/api-types.ts';\nexport type Probe = UserStatus;\n";
    expect(await ruleIds(typeOnly, 'engine/rules/boundary-probe.ts')).toContain(restricted);
  });

  it('refuses a wire → client import', async () => {
    expect(await ruleIds(importing('../client/retry.ts', 'retryDelayMs'), 'engine/wire/boundary-probe.ts')).toContain(restricted);
  });

  it('lets the client import the wire and the rules, and the wire import the rules', async () => {
    expect(await ruleIds(importing('../wire/refusals.ts', 'refusalMessage'), 'engine/client/boundary-probe.ts')).toEqual([]);
    expect(await ruleIds(importing('../rules/economy.ts', 'economy'), 'engine/client/boundary-probe.ts')).toEqual([]);
    expect(await ruleIds(importing('../rules/economy.ts', 'economy'), 'engine/wire/boundary-probe.ts')).toEqual([]);
  });

  it('refuses a server → engine/client import, and lets the server import the rules and the wire', async () => {
    expect(await ruleIds(importing('../../engine/client/retry.ts', 'retryDelayMs'), 'server/clicks/boundary-probe.ts')).toContain(restricted);
    expect(await ruleIds(importing('../../engine/rules/economy.ts', 'economy'), 'server/clicks/boundary-probe.ts')).toEqual([]);
    expect(await ruleIds(importing('../../engine/wire/refusals.ts', 'refusalMessage'), 'server/clicks/boundary-probe.ts')).toEqual([]);
  });

  it('has no import loop, type-only imports included', () => {
    const root = new URL('../engine/', import.meta.url).pathname;
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    const importsOf = (file: string) =>
      [...readFileSync(join(root, file), 'utf8').matchAll(/(?:\bfrom |\bimport\()'(\.{1,2}\/[^']+)'/g)].map((m) => relative(root, resolve(root, dirname(file), m[1]!)));
    const loops: string[] = [];
    const done = new Set<string>();
    const walk = (file: string, path: string[]) => {
      if (path.includes(file)) return void loops.push([...path.slice(path.indexOf(file)), file].join(' → '));
      if (done.has(file)) return;
      for (const next of importsOf(file)) if (files.includes(next)) walk(next, [...path, file]);
      done.add(file);
    };
    for (const file of files) walk(file, []);
    expect(loops).toEqual([]);
  });
});

// server/'s layers (docs/architecture.md "Server layout"): app → routes → features → core.
describe('server layers', () => {
  it('refuses a core → feature, core → route and core → app import', async () => {
    expect(await ruleIds(importing('../players/users.ts', 'loadUser'), 'server/core/boundary-probe.ts')).toContain(restricted);
    expect(await ruleIds(importing('../players/exports.ts', 'loadUser'), 'server/core/boundary-probe.ts')).toContain(restricted);
    expect(await ruleIds(importing('../routes/schemas.ts', 'errorSchema'), 'server/core/boundary-probe.ts')).toContain(restricted);
    expect(await ruleIds(importing('../app.ts', 'createApp'), 'server/core/boundary-probe.ts')).toContain(restricted);
  });

  it('refuses a feature → route and feature → app import', async () => {
    expect(await ruleIds(importing('../routes/schemas.ts', 'errorSchema'), 'server/clicks/boundary-probe.ts')).toContain(restricted);
    expect(await ruleIds(importing('../app.ts', 'createApp'), 'server/clicks/boundary-probe.ts')).toContain(restricted);
    expect(await ruleIds(importing('../web/web-plugin.ts', 'registerWeb'), 'server/forecast/boundary-probe.ts')).toContain(restricted);
  });

  it("refuses a feature's import of another feature's inner file, and lets exports.ts through", async () => {
    expect(await ruleIds(importing('../players/users.ts', 'loadUser'), 'server/clicks/boundary-probe.ts')).toContain(restricted);
    expect(await ruleIds(importing('../players/exports.ts', 'loadUser'), 'server/clicks/boundary-probe.ts')).toEqual([]);
  });

  it('refuses a route → app import', async () => {
    expect(await ruleIds(importing('../app.ts', 'createApp'), 'server/routes/boundary-probe.ts')).toContain(restricted);
  });

  it("refuses a route's import of a feature's inner file, types included", async () => {
    expect(await ruleIds(importing('../players/users.ts', 'loadUser'), 'server/routes/boundary-probe.ts')).toContain(restricted);
    expect(await ruleIds(importing('../airdrop/claim.ts', 'claimFor'), 'server/routes/boundary-probe.ts')).toContain(restricted);
    const typeOnly = "import type { ServedRound } from '../airdrop/served-round.ts';\nexport type Probe = ServedRound;\n";
    expect(await ruleIds(typeOnly, 'server/routes/boundary-probe.ts')).toContain(restricted);
  });

  it("lets a route import a feature's exports.ts and core, and a feature import core", async () => {
    expect(await ruleIds(importing('../players/exports.ts', 'loadUser'), 'server/routes/boundary-probe.ts')).toEqual([]);
    expect(await ruleIds(importing('../core/clock.ts', 'systemClock'), 'server/routes/boundary-probe.ts')).toEqual([]);
    expect(await ruleIds(importing('../core/clock.ts', 'systemClock'), 'server/clicks/boundary-probe.ts')).toEqual([]);
  });

  it("treats background/ as wiring: it reaches features through their exports.ts, and no feature imports it", async () => {
    expect(await ruleIds(importing('../tasks/prune.ts', 'pruneTaskHistory'), 'server/background/boundary-probe.ts')).toContain(restricted);
    expect(await ruleIds(importing('../tasks/exports.ts', 'pruneTaskHistory'), 'server/background/boundary-probe.ts')).toEqual([]);
    expect(await ruleIds(importing('../background/exports.ts', 'runJobsOnce'), 'server/daily/boundary-probe.ts')).toContain(restricted);
    expect(await ruleIds(importing('../background/jobs.ts', 'runJobsOnce'), 'server/routes/boundary-probe.ts')).toContain(restricted);
    expect(await ruleIds(importing('../routes/schemas.ts', 'errorSchema'), 'server/background/boundary-probe.ts')).toContain(restricted);
  });

  it('refuses an import cycle', async () => {
    // ledger.ts is imported (through players/exports.ts) by boosts/player-actions.ts: importing that back closes a loop.
    expect(await ruleIds(importing('../boosts/exports.ts', 'payXAgeReward'), 'server/players/ledger.ts')).toContain('import-x/no-cycle');
  });
});

// One route file per feature (docs/architecture.md "Server layout"): server/routes/<feature>.ts holds
// that feature's routes for every audience (player, console, operator, outside services), beside the
// edge's own plumbing, so a route is found from its feature's folder and no file is named by audience.
describe('route files', () => {
  const plumbing = ['route-context.ts', 'schemas.ts', 'validation.ts', 'error-handler.ts', 'refusal-status.ts', 'health.ts'];
  const server = new URL('../server/', import.meta.url);
  // The features, and background/ (the test cron runs its job list): every folder but core and the edge.
  const folders = readdirSync(server, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !['core', 'routes', 'web', 'dev'].includes(d.name))
    .map((d) => d.name);
  /** The route files named neither after a folder of server/ nor as plumbing. */
  const strays = (files: string[]) => files.filter((f) => !plumbing.includes(f) && !folders.includes(f.replace(/\.ts$/, '')));
  const routeFiles = readdirSync(new URL('routes/', server));

  it('names every route file after a server/<feature>/ folder, beside the named plumbing', () => {
    expect(strays(routeFiles)).toEqual([]);
    for (const file of plumbing) expect(routeFiles).toContain(file);
  });

  it('bites on a route file named by audience or by anything but a feature', () => {
    expect(strays(['shop.ts', 'schemas.ts', 'admin-shop.ts', 'outside.ts', 'player-actions.ts', 'operator.ts'])).toEqual(['admin-shop.ts', 'outside.ts', 'player-actions.ts', 'operator.ts']);
  });
});

// One transaction helper (docs/architecture.md "Transactions").
describe('transactions', () => {
  it('refuses db.transaction and BEGIN outside server/core/db/transaction.ts', async () => {
    const opening = [
      "import type { Db } from '../core/db/db.ts';\nexport const probe = (db: Db) => db.transaction(async (tx) => tx.query('SELECT 1'));\n",
      "import type { Db } from '../core/db/db.ts';\nexport const probe = (deps: { db: Db }) => deps.db.transaction(async (tx) => tx.query('SELECT 1'));\n",
      "import type { Db } from '../core/db/db.ts';\nexport const probe = (db: Db) => db.query('BEGIN');\n",
      "import type { Db } from '../core/db/db.ts';\nexport const probe = (db: Db) => db.query(`START TRANSACTION ISOLATION LEVEL SERIALIZABLE`);\n",
    ];
    for (const code of opening) expect(await ruleIds(code, 'server/forecast/boundary-probe.ts')).toContain('no-restricted-syntax');
  });

  it('lets a feature open its transaction through the helper', async () => {
    const code =
      "import type { Db } from '../core/db/db.ts';\nimport { transaction } from '../core/db/transaction.ts';\nexport const probe = (db: Db) => transaction(db, async (tx) => tx.query('SELECT 1'));\n";
    expect(await ruleIds(code, 'server/forecast/boundary-probe.ts')).toEqual([]);
  });
});
