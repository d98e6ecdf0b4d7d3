/**
 * The airdrop's HTTP side (docs/airdrop.md):
 * - the player's TON wallet: the TON Connect manifest, a single-use ton_proof payload, link (proof
 *   verified offline), unlink, and the wallet with its airdrop allocation;
 * - operator (x-api-key = OPERATOR_API_KEY): POST /public/airdrop/snapshot takes a round's snapshot
 *   (again: the same answer, nothing changed), GET /public/airdrop/rounds/:round reads it;
 * - the TEP-176 custom-payload API wallets fetch (no auth), rooted at `${apiPrefix}/jetton`:
 *   /jetton/wallet/:address answers the claim proof and compressed info, /jetton/state the totals;
 * - console (docs/admin.md "Airdrop"): the latest built round, and the same snapshot action.
 */
import { Address } from '@ton/core';
import type { FastifyPluginAsync } from 'fastify';
import { operatorKeyActor } from '../audit/exports.ts';
import { excludedMoneyChoices, type RoundParams } from '../../engine/wire/admin-types.ts';
import type { WalletInfo, WalletLinkPayload } from '../../engine/wire/api-types.ts';
import {
  allocationOf,
  claimFor,
  issueTonProofPayload,
  jettonState,
  latestBuiltRound,
  linkedWallet,
  linkWallet,
  roundSummary,
  takeAirdropSnapshot,
  unlinkWallet,
  verifyTonProof,
  withRootInt,
  type ClaimDeps,
  type JettonClaim,
  type JettonState,
} from '../airdrop/exports.ts';
import { actorOf } from '../console/exports.ts';
import { playerOf } from '../players/exports.ts';
import { publicUrl } from '../core/config/outside-config.ts';
import { refuse } from '../core/errors.ts';
import { int, obj } from './validation.ts';
import { consoleScope, type RouteContext } from './route-context.ts';
import { consoleErrorResponses, errorResponses, nullable, objectOf, operatorRoute, playerRoute, recordOf } from './schemas.ts';

const unixS = (description: string) => ({ ...int(0, 2 ** 48 - 1, description) });
/** What becomes of the MONEY of players the integrity review excluded (docs/airdrop.md "Exclusions"). */
const excludedMoneySchema = {
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

/** GET /airdrop in the console: the latest built round, null before the first. */
interface LatestRound {
  latest: RoundAnswer | null;
}
const latestRoundSchema = objectOf<LatestRound>()({ latest: nullable(roundSchema) });

/** The TON Connect manifest (its `url`'s host is the ton_proof domain). */
interface TonConnectManifest {
  url: string;
  name: string;
  iconUrl: string;
}

const jettonStateSchema = objectOf<JettonState>()({ total_wallets: 'integer', master_address: 'string?', round: 'integer?', merkle_root: 'string?' });
const jettonClaimSchema = objectOf<JettonClaim>()({
  owner: 'string',
  custom_payload: 'string',
  compressed_info: objectOf<JettonClaim['compressed_info']>()({ amount: 'string', start_from: 'string', expired_at: 'string' }),
  jetton_wallet: 'string',
  state_init: 'string',
});

const str = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength }) as const;

const walletInfoSchema = objectOf<WalletInfo>()({
  address: 'string?',
  friendlyAddress: 'string?',
  allocation: nullable(objectOf<NonNullable<WalletInfo['allocation']>>()({ round: 'integer', amount: 'string', startFrom: 'integer', expireAt: 'integer' })),
});

const linkBody = obj(
  {
    address: str(100),
    network: str(20),
    publicKey: { type: 'string', pattern: '^[0-9a-fA-F]{64}$' },
    walletStateInit: str(8_192),
    proof: obj(
      {
        timestamp: { type: 'integer', minimum: 0, maximum: 2 ** 40 },
        domain: obj({ lengthBytes: { type: 'integer', minimum: 0, maximum: 253 }, value: { type: 'string', maxLength: 253 } }, ['lengthBytes', 'value']),
        signature: str(200),
        payload: str(128),
      },
      ['timestamp', 'domain', 'signature', 'payload'],
    ),
  },
  ['address', 'walletStateInit', 'proof'],
);

/** The domain a ton_proof must carry: TON_PROOF_DOMAIN, else PUBLIC_URL's host (the manifest's url). */
const tonProofDomain = (c: RouteContext['config']): string => c.TON_PROOF_DOMAIN || new URL(publicUrl(c)).host;

export const airdropRoutes: FastifyPluginAsync<RouteContext> = async (app, ctx) => {
  // The served round and its dictionary (server/airdrop/served-round.ts), shared with the console.
  const served = ctx.airdrop;
  const claims: ClaimDeps = { served, jetton: { master: ctx.config.JETTON_MASTER_ADDRESS, code: ctx.config.JETTON_WALLET_CODE } };

  const route = playerRoute(ctx);
  const domain = tonProofDomain(ctx.config);

  const walletInfo = async (userId: number): Promise<WalletInfo> => {
    const [wallet, allocation] = await Promise.all([linkedWallet(ctx.db, userId), allocationOf(ctx.db, userId)]);
    return {
      address: wallet?.address ?? null,
      friendlyAddress: wallet === null ? null : Address.parseRaw(wallet.address).toString({ bounceable: false }),
      allocation,
    };
  };

  app.get<{ Reply: TonConnectManifest }>(
    '/public/tonconnect-manifest.json',
    {
      schema: {
        summary: 'The TON Connect manifest: the app url (its host is the ton_proof domain), name and icon',
        tags: ['wallet', 'public'],
        response: { 200: objectOf<TonConnectManifest>()({ url: 'string', name: 'string', iconUrl: 'string' }) },
      },
    },
    async (_request, reply) => {
      const base = publicUrl(ctx.config);
      void reply.header('access-control-allow-origin', '*').header('cache-control', 'public, max-age=3600');
      return { url: base, name: 'MONEY', iconUrl: `${base}/og-image.png` };
    },
  );

  app.get(
    '/wallet',
    route('wallet', 'The linked TON wallet and the airdrop allocation', { response: { 200: walletInfoSchema, ...errorResponses } }),
    async (request) => walletInfo(playerOf(request).id),
  );

  app.post(
    '/wallet/ton-proof-payload',
    route('wallet', `A single-use ton_proof payload to sign (valid TON_PROOF_TTL_S, ${ctx.config.TON_PROOF_TTL_S} s)`, {
      response: { 200: { type: 'object', properties: { payload: { type: 'string' }, expiresAtMs: { type: 'integer' } } }, ...errorResponses },
    }),
    async (request) => issueTonProofPayload(ctx.db, playerOf(request).id, ctx.clock.now(), ctx.config.TON_PROOF_TTL_S),
  );

  app.post<{ Body: WalletLinkPayload }>(
    '/wallet/link',
    route('wallet', 'Links the TON wallet whose ton_proof verifies (one wallet per player, one player per wallet)', {
      body: linkBody,
      response: { 200: walletInfoSchema, ...errorResponses },
    }),
    async (request) => {
      const now = ctx.clock.now();
      const check = verifyTonProof(request.body, { domain, nowMs: now, ttlS: ctx.config.TON_PROOF_TTL_S });
      if (!check.ok) throw check.refusal;
      const userId = playerOf(request).id;
      await linkWallet(ctx.db, userId, check.wallet, now);
      return walletInfo(userId);
    },
  );

  app.post(
    '/wallet/unlink',
    route('wallet', 'Unlinks the TON wallet (a snapshot already taken keeps its allocation)', { response: { 200: walletInfoSchema, ...errorResponses } }),
    async (request) => {
      const userId = playerOf(request).id;
      await unlinkWallet(ctx.db, userId);
      return walletInfo(userId);
    },
  );
  const operator = operatorRoute(ctx);

  app.post<{ Body: RoundParams; Reply: RoundAnswer }>(
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

  app.get<{ Params: { round: number }; Reply: RoundAnswer }>(
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

  app.get<{ Reply: JettonState }>(
    '/jetton/state',
    { schema: { summary: 'TEP-176 /state: wallets in the served round and the jetton master', tags: ['airdrop', 'public'], response: { 200: jettonStateSchema, ...errorResponses } } },
    async () => jettonState(claims),
  );

  app.get<{ Params: { address: string }; Reply: JettonClaim }>(
    '/jetton/wallet/:address',
    {
      schema: {
        summary: 'TEP-176 /wallet/:address: the claim custom payload (Merkle proof), compressed info and, when configured, the jetton wallet and state init',
        tags: ['airdrop', 'public'],
        params: obj({ address: { type: 'string', minLength: 1, maxLength: 100 } }, ['address']),
        response: { 200: jettonClaimSchema, ...errorResponses },
      },
    },
    async (request) => claimFor(claims, request.params.address),
  );
};

export const airdropConsoleRoutes = consoleScope(async (app, ctx) => {
  const unixS = int(0, 2 ** 48 - 1);
  app.get<{ Reply: LatestRound }>('/airdrop', { schema: { response: { 200: latestRoundSchema, ...consoleErrorResponses } } }, async () => {
    const round = await latestBuiltRound(ctx.db);
    return { latest: round === null ? null : withRootInt(round) };
  });
  app.post<{ Body: RoundParams; Reply: RoundAnswer }>(
    '/airdrop/snapshot',
    {
      schema: {
        body: obj({ round: int(1, 1_000_000), startFrom: unixS, expireAt: unixS, excludedMoney: excludedMoneySchema }, ['round', 'startFrom', 'expireAt']),
        response: { 200: roundSchema, ...consoleErrorResponses },
      },
    },
    async (request) => {
      const params = request.body;
      // The same action as POST /public/airdrop/snapshot (docs/airdrop.md); the build takes seconds per 100,000 wallets.
      const actor = actorOf(request);
      const { summary, created } = await takeAirdropSnapshot({ db: ctx.db, served: ctx.airdrop, countsBoughtBoosts: ctx.config.AIRDROP_COUNTS_BOUGHT_BOOSTS }, actor, params, ctx.clock.now());
      return { ...withRootInt(summary), created };
    },
  );
});
