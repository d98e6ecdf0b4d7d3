/**
 * The airdrop's HTTP side (docs/airdrop.md):
 * - operator (x-api-key = OPERATOR_API_KEY): POST /public/airdrop/snapshot takes a round's snapshot
 *   (again: the same answer, nothing changed), GET /public/airdrop/rounds/:round reads it;
 * - the TEP-176 custom-payload API wallets fetch (no auth), rooted at `${apiPrefix}/jetton`:
 *   /jetton/wallet/:address answers the claim proof and compressed info, /jetton/state the totals.
 */
import type { Address } from '@ton/core';
import { Cell } from '@ton/core';
import type { FastifyPluginAsync } from 'fastify';
import { operatorKeyActor } from '../console/audit.ts';
import { claimPayloadBoc } from '../airdrop/airdrop-boc.ts';
import { addressKey, itemAt, pathTo } from '../airdrop/airdrop-tree.ts';
import { jettonWalletOf } from '../airdrop/jetton-wallet.ts';
import { parseTonAddress } from '../airdrop/ton-address.ts';
import { excludedMoneyChoices, latestBuiltRound, roundSummary, type RoundParams } from '../airdrop/snapshot.ts';
import { takeAirdropSnapshot, withRootInt } from '../airdrop/take-snapshot.ts';
import { refuse } from '../core/errors.ts';
import { metrics } from '../core/metrics.ts';
import { int, obj } from './validation.ts';
import type { RouteContext } from './route-context.ts';
import { integrityOperatorRoutes } from './integrity.ts';
import { errorResponses, objectOf, operatorRoute, recordOf } from './schemas.ts';

const unixS = (description: string) => ({ ...int(0, 2 ** 48 - 1, description) });
/** What becomes of the MONEY of players the integrity review excluded (docs/airdrop.md "Exclusions"). */
export const excludedMoneySchema = {
  type: 'string',
  enum: [...excludedMoneyChoices],
  description: 'unminted (default): the excluded MONEY is not minted; redistributed: it goes to the eligible players pro rata',
} as const;

/** The answer of both round routes: the round, and on the snapshot whether this call built it. */
type RoundAnswer = ReturnType<typeof withRootInt> & { created?: boolean };

const roundSchema = objectOf<RoundAnswer>()({
  round: 'integer',
  status: 'string',
  startFrom: 'integer',
  expireAt: 'integer',
  wallets: 'integer',
  totalAmount: 'string',
  merkleRoot: 'string?',
  merkleRootInt: 'string?',
  bocBytes: 'integer?',
  excludedMoney: 'string',
  excludedPlayers: 'integer',
  excludedAmount: 'string',
  excludedReasons: recordOf('integer', 'excluded players per reason code'),
  created: 'boolean',
});

/** The jetton master and wallet code, when configured: the claim API then adds the jetton wallet and its state init. */
const jettonOf = (c: RouteContext['config']): { master: Address; code: Cell } | null => {
  if (!c.JETTON_MASTER_ADDRESS || !c.JETTON_WALLET_CODE) return null;
  const master = parseTonAddress(c.JETTON_MASTER_ADDRESS, { workchains: [0, -1], friendly: true });
  if (!master.ok) throw new Error(`JETTON_MASTER_ADDRESS ${master.message}`);
  try {
    return { master: master.address, code: Cell.fromBase64(c.JETTON_WALLET_CODE) };
  } catch (cause) {
    throw new Error('JETTON_WALLET_CODE must be a base64 BoC', { cause });
  }
};

export const airdropRoutes: FastifyPluginAsync<RouteContext> = async (app, ctx) => {
  const jetton = jettonOf(ctx.config);
  // The served round and its dictionary (server/airdrop/served-round.ts), shared with the console.
  const served = ctx.airdrop;

  const operator = operatorRoute(ctx);
  // GET /public/airdrop/flags: the integrity review's list (server/routes/integrity.ts).
  await app.register(integrityOperatorRoutes, ctx);

  app.post<{ Body: RoundParams }>(
    '/public/airdrop/snapshot',
    operator('Takes the snapshot of a round: freezes eligible allocations, builds and stores the TEP-177 dictionary, answers its Merkle root', {
      tags: ['airdrop', 'operator'],
      body: obj(
        {
          round: int(1, 1_000_000, 'round number'),
          startFrom: unixS('claims open (unix s)'),
          expireAt: unixS('claims close (unix s)'),
          excludedMoney: excludedMoneySchema,
        },
        ['round', 'startFrom', 'expireAt'],
      ),
      response: { 200: roundSchema, 201: roundSchema, ...errorResponses },
    }),
    async (request, reply) => {
      const { summary, created } = await takeAirdropSnapshot({ db: ctx.db, served, countsBoughtBoosts: ctx.config.AIRDROP_COUNTS_BOUGHT_BOOSTS }, operatorKeyActor, request.body, ctx.clock.now());
      // The root goes into the jetton master's data (merkle_root:uint256).
      app.log.info({ round: summary.round, merkleRoot: summary.merkleRoot, wallets: summary.wallets }, 'airdrop snapshot');
      return reply.status(created ? 201 : 200).send({ ...withRootInt(summary), created });
    },
  );

  app.get<{ Params: { round: number } }>(
    '/public/airdrop/rounds/:round',
    operator('A round: status, wallets, total, Merkle root', {
      tags: ['airdrop', 'operator'],
      params: obj({ round: int(1, 1_000_000) }, ['round']),
      response: { 200: roundSchema, ...errorResponses },
    }),
    async (request) => {
      const s = await roundSummary(ctx.db, request.params.round);
      if (s === null) throw refuse('roundNotFound', { field: 'round', values: { round: request.params.round } });
      return withRootInt(s);
    },
  );

  app.get(
    '/jetton/state',
    { schema: { summary: 'TEP-176 /state: wallets in the served round and the jetton master', tags: ['airdrop', 'public'] } },
    async () => {
      const round = await latestBuiltRound(ctx.db);
      return { total_wallets: round?.wallets ?? 0, master_address: jetton?.master.toRawString() ?? null, round: round?.round ?? null, merkle_root: round?.merkleRoot ?? null };
    },
  );

  app.get<{ Params: { address: string } }>(
    '/jetton/wallet/:address',
    {
      schema: {
        summary: 'TEP-176 /wallet/:address: the claim custom payload (Merkle proof), compressed info and, when configured, the jetton wallet and state init',
        tags: ['airdrop', 'public'],
        params: obj({ address: { type: 'string', minLength: 1, maxLength: 100 } }, ['address']),
      },
    },
    async (request) => {
      const startedMs = performance.now();
      const parsed = parseTonAddress(request.params.address, { workchains: [0, -1], friendly: true });
      if (!parsed.ok) throw refuse('notATonAddress', { field: 'address' });
      const owner = parsed.address;
      const round = await served.round();
      if (round === null) throw refuse('noAirdropSnapshot', { field: 'address' });
      // While the dictionary loads this refuses airdropLoading, which the edge answers with Retry-After.
      const tree = served.treeOf(round.round);
      const found = pathTo(tree, addressKey(owner));
      if (found === null) throw refuse('notInAirdrop', { field: 'address', values: { address: owner.toRawString() } });
      const item = itemAt(tree, found);
      const answer: Record<string, unknown> = {
        owner: owner.toRawString(),
        custom_payload: claimPayloadBoc(tree, found).toString('base64'),
        compressed_info: { amount: item.amount.toString(), start_from: String(item.startFrom), expired_at: String(item.expireAt) },
      };
      if (jetton !== null) {
        // The reference master's wallet for this owner and round: its salt puts it in the owner's shard.
        const wallet = jettonWalletOf(owner, jetton.master, jetton.code, BigInt(`0x${round.merkleRoot!}`));
        answer.jetton_wallet = wallet.address.toRawString();
        answer.state_init = wallet.stateInit.toBoc().toString('base64');
      }
      metrics.airdrop.proofsServed.inc();
      metrics.airdrop.proofSeconds.observe((performance.now() - startedMs) / 1_000);
      return answer;
    },
  );
};
