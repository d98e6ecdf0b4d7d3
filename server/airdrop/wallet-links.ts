/**
 * The player's TON wallet (docs/airdrop.md): a single-use ton_proof payload, the link (one wallet
 * per player, one player per wallet) and the unlink. The proof itself is checked by ton-proof.ts
 * before anything here runs, so a refused proof changes nothing.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../core/db/db.ts';
import { transaction } from '../core/db/transaction.ts';
import { refuse } from '../core/errors.ts';
import type { VerifiedWallet } from './ton-proof.ts';

const hashOf = (payload: string) => createHash('sha256').update(payload).digest('hex');

/** Issues a fresh payload (32 random bytes, hex) for the player to have signed; expired ones are swept. */
export const issueTonProofPayload = async (db: Db, userId: number, nowMs: number, ttlS: number): Promise<{ payload: string; expiresAtMs: number }> => {
  const payload = randomBytes(32).toString('hex');
  const expiresAtMs = nowMs + ttlS * 1000;
  await db.query('INSERT INTO ton_proof_payloads (payload_hash, user_id, issued_at_ms, expires_at_ms) VALUES ($1, $2, $3, $4)', [hashOf(payload), userId, nowMs, expiresAtMs]);
  // Bounded sweep: a few old rows per issue keep the table small without a job.
  await db.query('DELETE FROM ton_proof_payloads WHERE payload_hash IN (SELECT payload_hash FROM ton_proof_payloads WHERE expires_at_ms < $1 LIMIT 20)', [nowMs - 86_400_000]);
  return { payload, expiresAtMs };
};

export interface LinkedWallet {
  address: string;
  version: string;
  linkedAtMs: number;
}

/**
 * Links a verified wallet: consumes the payload (issued to this player, unexpired, unused) and
 * writes the link, in one transaction. Refuses naming the field when any of it fails.
 */
export const linkWallet = async (db: Db, userId: number, wallet: VerifiedWallet, nowMs: number): Promise<LinkedWallet> =>
  transaction(db, async (tx) => {
    const used = await tx.query(
      `UPDATE ton_proof_payloads SET used_at_ms = $3
       WHERE payload_hash = $1 AND user_id = $2 AND used_at_ms IS NULL AND expires_at_ms >= $3`,
      [hashOf(wallet.payload), userId, nowMs],
    );
    if (used.rowCount !== 1) throw refuse('proofPayloadSpent', { field: 'proof.payload' });
    // Either key may clash: the player's (a second wallet, also when two links race) or the wallet's
    // (another player's). The insert skips both and the row it met tells which; the throw rolls back the payload too.
    const inserted = await tx.query(
      `INSERT INTO ton_wallets (user_id, address, public_key, wallet_version, linked_at_ms) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT DO NOTHING`,
      [userId, wallet.address, wallet.publicKey, wallet.version, nowMs],
    );
    if (inserted.rowCount !== 1) {
      const met = await tx.query<{ user_id: string; address: string }>('SELECT user_id::text, address FROM ton_wallets WHERE user_id = $1 OR address = $2', [userId, wallet.address]);
      const mine = met.rows.find((r) => r.user_id === String(userId));
      if (mine !== undefined) throw refuse(mine.address === wallet.address ? 'walletAlreadyLinked' : 'unlinkWalletFirst', { field: 'address' });
      throw refuse(met.rows.length > 0 ? 'walletLinkedElsewhere' : 'walletLinkRaced', { field: 'address' });
    }
    return { address: wallet.address, version: wallet.version, linkedAtMs: nowMs };
  });

/** Unlinks the player's wallet; true when there was one. Frozen airdrop rounds keep their allocation. */
export const unlinkWallet = async (db: Db, userId: number): Promise<boolean> =>
  (await db.query('DELETE FROM ton_wallets WHERE user_id = $1', [userId])).rowCount === 1;

export const linkedWallet = async (db: Db, userId: number): Promise<LinkedWallet | null> => {
  const r = await db.query<{ address: string; wallet_version: string; linked_at_ms: number }>(
    'SELECT address, wallet_version, linked_at_ms FROM ton_wallets WHERE user_id = $1',
    [userId],
  );
  const row = r.rows[0];
  return row === undefined ? null : { address: row.address, version: row.wallet_version, linkedAtMs: row.linked_at_ms };
};
