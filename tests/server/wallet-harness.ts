import { openHarness, type Backend, type Harness } from './harness.ts';

export const domain = 'money.example';

/** An app whose PUBLIC_URL (and so the ton_proof domain) is https://money.example, with the airdrop key set. */
export const openWalletHarness = (backend: Backend, env: Record<string, string> = {}): Promise<Harness> =>
  openHarness(backend, undefined, { PUBLIC_URL: `https://${domain}`, OPERATOR_API_KEY: 'operator-key', ...env });
