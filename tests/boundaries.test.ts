import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The architecture's import boundaries live in eslint.config.js; these check that they bite.
const eslint = new ESLint({ cwd: new URL('..', import.meta.url).pathname });

const ruleIds = async (code: string, filePath: string): Promise<string[]> => {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
};

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
