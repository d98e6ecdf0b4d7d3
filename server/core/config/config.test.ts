import { describe, expect, it } from 'vitest';
import { configSchemaOf, demoStandInsOn, loadSettings } from './config.ts';

// Core's own keys and its loader; each feature's keys are tested with its settings.ts.
const loadConfig = (env: Record<string, string | undefined>) => loadSettings(configSchemaOf({}), env);

describe('loadConfig', () => {
  it('fills the defaults', () => {
    const c = loadConfig({});
    expect(c.DATA_DIR).toBe('./data');
    expect(c.INIT_DATA_MAX_AGE_S).toBe(86_400);
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.TEST_MODE).toBe(false);
  });

  it('reads flags and numbers from strings, and treats empty strings as unset', () => {
    const c = loadConfig({ TEST_MODE: 'true', INIT_DATA_MAX_AGE_S: '60', DATABASE_URL: '' });
    expect(c.TEST_MODE).toBe(true);
    expect(c.INIT_DATA_MAX_AGE_S).toBe(60);
    expect(c.DATABASE_URL).toBeUndefined();
  });

  it('throws one error listing every problem', () => {
    let message = '';
    try {
      loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'mysql://x', INIT_DATA_MAX_AGE_S: '-5', TEST_MODE: 'maybe' });
    } catch (err) {
      message = (err as Error).message;
    }
    for (const key of ['DATABASE_URL', 'INIT_DATA_MAX_AGE_S', 'TEST_MODE', 'BOT_TOKEN']) expect(message).toContain(key);
  });

  it('runs the demo stand-ins by default in development only, and refuses them in production', () => {
    expect(demoStandInsOn(loadConfig({}))).toBe(true);
    expect(demoStandInsOn(loadConfig({ NODE_ENV: 'test' }))).toBe(false);
    expect(demoStandInsOn(loadConfig({ NODE_ENV: 'test', DEMO_STAND_INS: '1' }))).toBe(true);
    expect(demoStandInsOn(loadConfig({ DEMO_STAND_INS: '0' }))).toBe(false);
    const bot = '123456:AAbbccddeeffgghhiijjkkll';
    expect(demoStandInsOn(loadConfig({ NODE_ENV: 'production', BOT_TOKEN: bot }))).toBe(false);
    expect(() => loadConfig({ NODE_ENV: 'production', BOT_TOKEN: bot, DEMO_STAND_INS: '1' })).toThrow(/DEMO_STAND_INS: must be off in production/);
  });

  it('WORKERS defaults to 1, and more than 1 is refused on the embedded PGlite with the reason', () => {
    expect(loadConfig({}).WORKERS).toBe(1);
    expect(loadConfig({ WORKERS: '3', DATABASE_URL: 'postgres://db/money' }).WORKERS).toBe(3);
    expect(() => loadConfig({ WORKERS: '3' })).toThrow(/WORKERS: more than 1 worker needs PostgreSQL \(set DATABASE_URL\)/);
    expect(() => loadConfig({ WORKERS: '0', DATABASE_URL: 'postgres://db/money' })).toThrow(/WORKERS/);
  });
});
