/**
 * `npm run airdrop:snapshot -- <round> <startFrom> <expireAt> [unminted|redistributed]`: takes a
 * round's snapshot from the command line, against the configured database (DATABASE_URL, or PGlite
 * in DATA_DIR while no server runs on it), and prints the Merkle root for the jetton master. The
 * same action as POST /public/airdrop/snapshot (takeAirdropSnapshot: the same idempotence, the
 * audit row as the operator key's, admin id 0), without holding an API process's event loop. The
 * fourth argument says what becomes of excluded players' MONEY (docs/airdrop.md "Exclusions").
 */
import { configSchemaOf, loadSettings } from '../core/config/config.ts';
import { openDb } from '../core/db/db.ts';
import { operatorKeyActor } from '../audit/exports.ts';
import { excludedMoneyChoices, type ExcludedMoney } from '../../engine/wire/admin-types.ts';
import { airdropSettings } from './settings.ts';
import { roundDatesProblem } from './snapshot.ts';
import { takeAirdropSnapshot } from './take-snapshot.ts';

const usage =
  'usage: npm run airdrop:snapshot -- <round> <startFrom unix s> <expireAt unix s> [unminted|redistributed]   (expireAt after startFrom and in the future; excluded MONEY left unminted by default)';
const args = process.argv.slice(2);
const [round, startFrom, expireAt] = args.slice(0, 3).map(Number);
const excludedMoney = (args[3] ?? 'unminted') as ExcludedMoney;
if (args.length > 4 || ![round, startFrom, expireAt].every((v) => Number.isSafeInteger(v) && v! > 0) || !excludedMoneyChoices.includes(excludedMoney)) {
  console.error(usage);
  process.exit(2);
}
// Refused before the database is opened; takeSnapshot checks again against its own clock reading.
const problem = roundDatesProblem({ round: round!, startFrom: startFrom!, expireAt: expireAt! }, Date.now());
if (problem !== null) {
  console.error(`${problem.field}: ${problem.message}\n${usage}`);
  process.exit(2);
}
// The keys this command reads: core's and the airdrop's, every problem listed as at the server's start.
const config = loadSettings(configSchemaOf(airdropSettings), process.env);
const db = await openDb(config);
try {
  const started = Date.now();
  const phase = (name: string) => console.log(`  ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  const { summary, created } = await takeAirdropSnapshot({ db, phase, countsBoughtBoosts: config.AIRDROP_COUNTS_BOUGHT_BOOSTS }, operatorKeyActor, { round: round!, startFrom: startFrom!, expireAt: expireAt!, excludedMoney }, Date.now());
  console.log(`Round ${summary.round} ${created ? 'built' : 'was already built'}: ${summary.wallets} wallets, ${summary.totalAmount} jetton units.`);
  console.log(`Excluded by the review: ${summary.excludedPlayers} players, ${summary.excludedAmount} jetton units, ${summary.excludedMoney}.`);
  console.log(`Merkle root (hex):     ${summary.merkleRoot}`);
  console.log(`Merkle root (uint256): ${BigInt(`0x${summary.merkleRoot}`).toString()}`);
} catch (err) {
  console.error((err as Error).message);
  process.exitCode = 1;
} finally {
  await db.close();
}
