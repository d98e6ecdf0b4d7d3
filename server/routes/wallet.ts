/**
 * The player's TON wallet (docs/airdrop.md): the TON Connect manifest, a single-use ton_proof
 * payload, link (proof verified offline), unlink, and the wallet with its airdrop allocation.
 */
import { Address } from '@ton/core';
import type { FastifyPluginAsync } from 'fastify';
import type { WalletInfo, WalletLinkPayload } from '../../engine/wire/api-types.ts';
import { playerOf } from '../players/exports.ts';
import { allocationOf, issueTonProofPayload, linkedWallet, linkWallet, unlinkWallet, verifyTonProof } from '../airdrop/exports.ts';
import { obj } from './validation.ts';
import type { RouteContext } from './route-context.ts';
import { publicUrl } from '../core/config/outside-config.ts';
import { errorResponses, nullable, objectOf, playerRoute } from './schemas.ts';

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
export const tonProofDomain = (c: RouteContext['config']): string => c.TON_PROOF_DOMAIN || new URL(publicUrl(c)).host;

export const walletRoutes: FastifyPluginAsync<RouteContext> = async (app, ctx) => {
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

  app.get(
    '/public/tonconnect-manifest.json',
    { schema: { summary: 'The TON Connect manifest: the app url (its host is the ton_proof domain), name and icon', tags: ['wallet', 'public'] } },
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
};
