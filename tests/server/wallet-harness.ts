import { randomBytes } from 'node:crypto';
import { manualClock } from '../../server/clock.ts';
import { loadConfig } from '../../server/config.ts';
import { openDb } from '../../server/db/db.ts';
import { botToken, harnessOn, startMs, type Harness } from './harness.ts';

export const domain = 'money.example';

/** An app whose PUBLIC_URL (and so the ton_proof domain) is https://money.example, with the airdrop key set. */
export const openWalletHarness = async (backend: 'pglite' | 'postgres', env: Record<string, string> = {}): Promise<Harness> => {
  const config = loadConfig({
    BOT_TOKEN: botToken,
    NODE_ENV: 'test',
    PUBLIC_URL: `https://${domain}`,
    OPERATOR_API_KEY: 'operator-key',
    ...env,
    ...(backend === 'postgres' ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  });
  const db = await openDb(config, backend === 'postgres' ? { schema: `t_${randomBytes(6).toString('hex')}`, poolSize: 20 } : { inMemory: true });
  return harnessOn(db, config, manualClock(startMs));
};

