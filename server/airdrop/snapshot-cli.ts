/**
 * `npm run airdrop:snapshot -- <round> <startFrom> <expireAt>`: takes a round's snapshot from the
 * command line, against the configured database (DATABASE_URL, or PGlite in DATA_DIR while no
 * server runs on it), and prints the Merkle root for the jetton master. Same code and the same
 * idempotence as POST /public/airdrop/snapshot, without holding an API process's event loop.
 */
import { loadConfig } from '../core/config/config.ts';
import { openDb } from '../core/db/db.ts';
import { roundDatesProblem, takeSnapshot } from './snapshot.ts';

const usage = 'usage: npm run airdrop:snapshot -- <round> <startFrom unix s> <expireAt unix s>   (expireAt after startFrom and in the future)';
const [round, startFrom, expireAt] = process.argv.slice(2).map(Number);
if (![round, startFrom, expireAt].every((v) => Number.isSafeInteger(v) && v! > 0)) {
  console.error(usage);
  process.exit(2);
}
// Refused before the database is opened; takeSnapshot checks again against its own clock reading.
const problem = roundDatesProblem({ round: round!, startFrom: startFrom!, expireAt: expireAt! }, Date.now());
if (problem !== null) {
  console.error(`${problem.field}: ${problem.message}\n${usage}`);
  process.exit(2);
}
const db = await openDb(loadConfig(process.env));
try {
  const started = Date.now();
  const { summary, created } = await takeSnapshot(db, { round: round!, startFrom: startFrom!, expireAt: expireAt! }, Date.now(), (phase) =>
    console.log(`  ${phase} (${((Date.now() - started) / 1000).toFixed(1)} s)`),
  );
  console.log(`Round ${summary.round} ${created ? 'built' : 'was already built'}: ${summary.wallets} wallets, ${summary.totalAmount} jetton units.`);
  console.log(`Merkle root (hex):     ${summary.merkleRoot}`);
  console.log(`Merkle root (uint256): ${BigInt(`0x${summary.merkleRoot}`).toString()}`);
} catch (err) {
  console.error((err as Error).message);
  process.exitCode = 1;
} finally {
  await db.close();
}
