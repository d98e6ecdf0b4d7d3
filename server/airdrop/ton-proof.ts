/**
 * TON Connect `ton_proof`, verified offline (docs/airdrop.md): the public key comes from the
 * wallet's own state init (standard wallet code, data cell parsed), the address must be that state
 * init's address, and the ed25519 signature must cover the documented message:
 *
 *   message = "ton-proof-item-v2/" ++ workchain (int32 BE) ++ address hash (32) ++
 *             domain length (uint32 LE) ++ domain ++ timestamp (uint64 LE) ++ payload
 *   signed  = sha256(0xffff ++ "ton-connect" ++ sha256(message))
 *
 * Nothing here touches the database; the payload's single use is the caller's (wallet-links.ts).
 */
import { createHash } from 'node:crypto';
import { Cell, contractAddress, loadStateInit, type Address } from '@ton/core';
import { signVerify } from '@ton/crypto';
import type { RefusalCode, RefusalValues } from '../../engine/wire/refusals.ts';
import { refuse, type Refusal } from '../core/errors.ts';
import { parseTonAddress } from '../core/ton-address.ts';

/** The standard wallets' code hashes (hex) and how each one's data cell holds the public key. */
const walletVersions: Record<string, { version: string; publicKey: (data: Cell) => Buffer }> = (() => {
  // v3: seqno:uint32 subwallet:uint32 public_key:bits256; v4 adds plugins:(HashmapE …) after the key.
  const v3v4 = (data: Cell) => {
    const s = data.beginParse();
    s.skip(64);
    return s.loadBuffer(32);
  };
  // v5r1: is_signature_allowed:bit seqno:uint32 wallet_id:int32 public_key:bits256 extensions:(HashmapE …)
  const v5 = (data: Cell) => {
    const s = data.beginParse();
    s.skip(1 + 32 + 32);
    return s.loadBuffer(32);
  };
  return {
    b61041a58a7980b946e8fb9e198e3c904d24799ffa36574ea4251c41a566f581: { version: 'v3R1', publicKey: v3v4 },
    '84dafa449f98a6987789ba232358072bc0f76dc4524002a5d0918b9a75d2d599': { version: 'v3R2', publicKey: v3v4 },
    feb5ff6820e2ff0d9483e7e0d62c817d846789fb4ae580c878866d959dabd5c0: { version: 'v4R2', publicKey: v3v4 },
    '20834b7b72b112147e1b2fb457b84e74d1a30f04f737d4f62a668e9552d2b72f': { version: 'v5R1', publicKey: v5 },
  };
})();

export const supportedWalletVersions = Object.values(walletVersions).map((v) => v.version);

/** What the mini-app sends after TON Connect: the account and the signed proof, as the SDK gives them. */
export interface TonProofRequest {
  address: string;
  network?: string;
  publicKey?: string;
  walletStateInit: string;
  proof: { timestamp: number; domain: { lengthBytes: number; value: string }; signature: string; payload: string };
}

export interface VerifiedWallet {
  /** Raw form, `0:<64 hex>`. */
  address: string;
  publicKey: string;
  version: string;
  payload: string;
}

/** The verdict; a failure is the refusal naming the field that failed. */
export type ProofCheck = { ok: true; wallet: VerifiedWallet } | { ok: false; refusal: Refusal };

const fail = (field: string, code: RefusalCode, values?: RefusalValues): ProofCheck => ({ ok: false, refusal: refuse(code, { field, ...(values !== undefined ? { values } : {}) }) });
const sha256 = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();

/** The bytes the wallet signs for a ton_proof (exported for tests that play the wallet). */
export const tonProofSignedHash = (address: Address, domain: string, timestampS: number, payload: string): Buffer => {
  const wc = Buffer.alloc(4);
  wc.writeInt32BE(address.workChain);
  const domainBytes = Buffer.from(domain, 'utf8');
  const len = Buffer.alloc(4);
  len.writeUInt32LE(domainBytes.length);
  const ts = Buffer.alloc(8);
  ts.writeBigUInt64LE(BigInt(timestampS));
  const message = Buffer.concat([Buffer.from('ton-proof-item-v2/'), wc, address.hash, len, domainBytes, ts, Buffer.from(payload, 'utf8')]);
  return sha256(Buffer.from([0xff, 0xff]), Buffer.from('ton-connect'), sha256(message));
};

/**
 * Checks everything a ton_proof carries against the expected domain and the server's time.
 * `nowMs` is the server clock; the proof's timestamp may be at most `ttlS` old and 60 s ahead.
 */
export const verifyTonProof = (req: TonProofRequest, opts: { domain: string; nowMs: number; ttlS: number }): ProofCheck => {
  // Raw, as TON Connect gives it. Mintless jetton wallets live in the basechain, and so do the wallets that claim them.
  const parsed = parseTonAddress(req.address, { workchains: [0], friendly: false });
  if (!parsed.ok) return fail('address', 'walletAddressInvalid');
  const address = parsed.address;
  if (req.network !== undefined && req.network !== '-239') return fail('network', 'walletNotMainnet');

  let code: Cell;
  let data: Cell;
  try {
    const init = loadStateInit(Cell.fromBase64(req.walletStateInit).beginParse());
    if (!init.code || !init.data) return fail('walletStateInit', 'stateInitIncomplete');
    code = init.code;
    data = init.data;
    if (!contractAddress(address.workChain, { code, data }).equals(address)) return fail('walletStateInit', 'stateInitAddressMismatch');
  } catch {
    return fail('walletStateInit', 'stateInitNotBoc');
  }
  const known = walletVersions[code.hash().toString('hex')];
  if (known === undefined) return fail('walletStateInit', 'walletUnsupported', { versions: supportedWalletVersions.join(', ') });
  let publicKey: Buffer;
  try {
    publicKey = known.publicKey(data);
  } catch {
    return fail('walletStateInit', 'walletNoPublicKey');
  }
  if (req.publicKey !== undefined && req.publicKey.toLowerCase() !== publicKey.toString('hex')) return fail('publicKey', 'publicKeyMismatch');

  const { proof } = req;
  if (proof.domain.value !== opts.domain) return fail('proof.domain', 'proofWrongDomain', { domain: proof.domain.value, expected: opts.domain });
  if (proof.domain.lengthBytes !== Buffer.byteLength(proof.domain.value, 'utf8')) return fail('proof.domain', 'proofDomainLength');
  const nowS = Math.floor(opts.nowMs / 1000);
  if (proof.timestamp < nowS - opts.ttlS) return fail('proof.timestamp', 'proofExpired');
  if (proof.timestamp > nowS + 60) return fail('proof.timestamp', 'proofFromFuture');

  const signature = Buffer.from(proof.signature, 'base64');
  if (signature.length !== 64) return fail('proof.signature', 'proofSignatureMalformed');
  const signed = tonProofSignedHash(address, proof.domain.value, proof.timestamp, proof.payload);
  if (!signVerify(signed, signature, publicKey)) return fail('proof.signature', 'proofSignatureInvalid');
  return { ok: true, wallet: { address: address.toRawString(), publicKey: publicKey.toString('hex'), version: known.version, payload: proof.payload } };
};
