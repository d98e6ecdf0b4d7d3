import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configSchema, loadConfig } from '../../server/background/settings.ts';

const doc = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
const documented = new Set([...doc.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((m) => m[1]));

describe('configuration', () => {
  it('docs/configuration.md has a row for every variable of the schema', () => {
    const missing = Object.keys(configSchema.shape).filter((k) => !documented.has(k));
    expect(missing).toEqual([]);
  });

  it('startup fails with every problem listed at once', () => {
    const start = () => loadConfig({ NODE_ENV: 'production', PORT: 'abc', TWITTER_URL: 'nope', PUBLIC_URL: 'ftp://x' });
    for (const key of ['PORT', 'TWITTER_URL', 'PUBLIC_URL', 'BOT_TOKEN']) expect(start).toThrow(new RegExp(`^  - ${key}: `, 'm'));
  });

  it('production refuses to start without BOT_TOKEN, and starts with one', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/BOT_TOKEN: is required in production/);
    expect(loadConfig({ NODE_ENV: 'production', BOT_TOKEN: '123456:ABCDEFGHIJKLMNOPQRSTUVWXYZ' }).BOT_TOKEN).toBe('123456:ABCDEFGHIJKLMNOPQRSTUVWXYZ');
  });

  it('production refuses the test clock', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', BOT_TOKEN: '123456:ABCDEFGHIJKLMNOPQRSTUVWXYZ', TEST_MODE: '1' })).toThrow(/TEST_MODE: must be off in production/);
  });

  it('defaults give a runnable development server on port 3000', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ PORT: 3000, HOST: '127.0.0.1', DATA_DIR: './data', NODE_ENV: 'development' });
    expect(c.BOT_TOKEN).toBeUndefined();
  });
});
