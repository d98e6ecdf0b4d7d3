/**
 * ops/alerts.yml is valid and behaves as ops/alerts.test.yml says: promtool checks the rules, then
 * runs their unit tests (input series, and the alerts expected of each rule at given times).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { promtoolPath, skipWithout } from './prometheus-binaries.ts';

const ops = resolve(import.meta.dirname, '../../ops');
const run = (...args: string[]) =>
  promisify(execFile)(promtoolPath, args, { cwd: ops, timeout: 60_000 }).then(
    ({ stdout, stderr }) => ({ code: 0, out: stdout + stderr }),
    (err: { code?: number; stdout?: string; stderr?: string }) => ({ code: err.code ?? 1, out: `${err.stdout ?? ''}${err.stderr ?? ''}` }),
  );

describe.skipIf(skipWithout('alert rules', promtoolPath))('the alert rules (promtool)', () => {
  it('are valid rules', async () => {
    const r = await run('check', 'rules', 'alerts.yml');
    // Every `- alert:` of the file is a rule promtool found.
    const rules = [...readFileSync(resolve(ops, 'alerts.yml'), 'utf8').matchAll(/^\s+- alert: (\w+)$/gm)].length;
    expect(rules).toBeGreaterThanOrEqual(12);
    expect(r.out).toContain(`SUCCESS: ${rules} rules found`);
    expect(r.code, r.out).toBe(0);
  });

  it('fire as their unit tests expect, and every rule has a test that fires it', async () => {
    const r = await run('test', 'rules', 'alerts.test.yml');
    expect(r.code, r.out).toBe(0);
    const rules = [...readFileSync(resolve(ops, 'alerts.yml'), 'utf8').matchAll(/^\s+- alert: (\w+)$/gm)].map((m) => m[1]);
    const tests = readFileSync(resolve(ops, 'alerts.test.yml'), 'utf8');
    for (const rule of rules) expect(tests, `${rule} has no test in which it fires`).toMatch(new RegExp(`alertname: ${rule}\\n\\s+exp_alerts:\\n\\s+- exp_labels`));
  });
});
