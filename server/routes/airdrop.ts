/**
 * The airdrop's HTTP side (docs/airdrop.md):
 * - operator (x-api-key = OPERATOR_API_KEY): POST /public/airdrop/snapshot takes a round's snapshot
 *   (again: the same answer, nothing changed), GET /public/airdrop/rounds/:round reads it;
 * - the TEP-176 custom-payload API wallets fetch (no auth), rooted at `${apiPrefix}/jetton`:
 *   /jetton/wallet/:address answers the claim proof and compressed info, /jetton/state the totals.
 */
import type { FastifyPluginAsync } from 'fastify';
import { operatorKeyActor } from '../audit/exports.ts';
import { excludedMoneyChoices, type RoundParams } from '../../engine/wire/admin-types.ts';
import { claimFor, jettonState, roundSummary, takeAirdropSnapshot, withRootInt, type ClaimDeps } from '../airdrop/exports.ts';
import { refuse } from '../core/errors.ts';
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

export const airdropRoutes: FastifyPluginAsync<RouteContext> = async (app, ctx) => {
  // The served round and its dictionary (server/airdrop/served-round.ts), shared with the console.
  const served = ctx.airdrop;
  const claims: ClaimDeps = { served, jetton: { master: ctx.config.JETTON_MASTER_ADDRESS, code: ctx.config.JETTON_WALLET_CODE } };

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
    async () => jettonState(claims),
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
    async (request) => claimFor(claims, request.params.address),
  );
};
