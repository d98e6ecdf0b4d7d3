import { describe, expect, it } from 'vitest';
import { configSchemaOf, loadSettings } from '../core/config/config.ts';
import { airdropSettings } from './settings.ts';

const loadConfig = (env: Record<string, string | undefined>) => loadSettings(configSchemaOf(airdropSettings), env);

describe('the airdrop settings', () => {
  it('parses the jetton master and wallet code at start, listing both when they are wrong', () => {
    const master = `0:${'ab'.repeat(32)}`;
    const code = 'te6cckEBAQEAAgAAAEysuc0=';
    const c = loadConfig({ JETTON_MASTER_ADDRESS: master, JETTON_WALLET_CODE: code });
    expect(c.JETTON_MASTER_ADDRESS?.toRawString()).toBe(master);
    expect(c.JETTON_WALLET_CODE?.toBoc().toString('base64')).toBe(code);
    expect(loadConfig({}).JETTON_MASTER_ADDRESS).toBeUndefined();
    expect(loadConfig({ JETTON_WALLET_CODE: '' }).JETTON_WALLET_CODE).toBeUndefined();
    expect(() => loadConfig({ JETTON_MASTER_ADDRESS: '7:abc', JETTON_WALLET_CODE: 'not a boc' })).toThrow(
      /JETTON_MASTER_ADDRESS: must be a TON address[^]*JETTON_WALLET_CODE: must be a base64 BoC/,
    );
  });
});
