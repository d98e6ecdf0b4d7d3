/**
 * The integrity review's HTTP side (docs/airdrop.md "Integrity review"):
 * - operator (x-api-key = OPERATOR_API_KEY): GET /public/airdrop/flags, the flagged players,
 *   highest score first, keyset-paged (`cursor` from the previous page's `nextCursor`);
 * - console (signed in, docs/admin.md "Review"): the same list with the evidence behind each
 *   reason, and the decisions (clear, exclude, an appeal), each one action with its audit row.
 */
import type { FastifyPluginAsync } from 'fastify';
import { airdropReasonCodes, airdropReviewStates, type AirdropFlag, type AirdropFlagRow, type AirdropFlagsPage, type AirdropReviewState } from '../../engine/wire/airdrop-review.ts';
import { actorOf } from '../console/exports.ts';
import { decideAppeal, decideReview, flagOfPlayer, flagsCursorKeyOf, flagsPageMax, listFlagRows, listFlags, noteMaxLength, openReviews } from '../integrity/exports.ts';
import { consoleScope, type ConsoleContext, type RouteContext } from './route-context.ts';
import { arrayOf, consoleErrorResponses, enumOf, errorResponses, nullable, nullableEnumOf, objectOf, operatorRoute } from './schemas.ts';
import { int, obj } from './validation.ts';

interface FlagsQuery {
  cursor?: string;
  limit?: number;
  state?: AirdropReviewState;
}

const flagsQuery = obj({
  cursor: { type: 'string', minLength: 1, maxLength: 80, description: 'nextCursor of the previous page, as it answered it' },
  limit: { ...int(1, flagsPageMax, 'players per page'), default: 50 },
  state: { type: 'string', enum: [...airdropReviewStates], description: 'only players in this state' },
});

const flagFields = {
  userId: 'string',
  score: 'integer',
  state: enumOf(airdropReviewStates),
  reasons: arrayOf(enumOf(airdropReasonCodes)),
} as const;
const flagsPageSchema = objectOf<AirdropFlagsPage>()({ items: arrayOf(objectOf<AirdropFlag>()(flagFields)), nextCursor: 'string?' });

const flagRowSchema = objectOf<AirdropFlagRow>()({
  ...flagFields,
  teleUsername: 'string',
  totalMoney: 'string',
  decision: nullableEnumOf(['cleared', 'excluded']),
  appeal: nullableEnumOf(['upheld', 'overturned']),
  evidence: arrayOf(objectOf<AirdropFlagRow['evidence'][number]>()({ code: enumOf([...airdropReasonCodes, 'trust']), text: 'string' })),
  decidedAtMs: 'integer?',
  decisionNote: 'string',
});
/** GET /integrity/flags: a page of flagged players with their evidence, and how many reviews are open. */
type ConsoleFlagsPage = AirdropFlagsPage<AirdropFlagRow> & { openReviews: number };
/** GET /integrity/players/:id: the player's flag, null when never flagged. */
interface PlayerFlag {
  player: AirdropFlagRow | null;
}

const pageOpts = (cursorKey: Buffer, q: FlagsQuery) => ({ cursorKey, limit: q.limit ?? 50, ...(q.cursor !== undefined ? { cursor: q.cursor } : {}), ...(q.state !== undefined ? { state: q.state } : {}) });

export const integrityRoutes: FastifyPluginAsync<RouteContext> = async (app, ctx) => {
  const cursorKey = flagsCursorKeyOf(ctx.config);
  app.get<{ Querystring: FlagsQuery; Reply: AirdropFlagsPage }>(
    '/public/airdrop/flags',
    operatorRoute(ctx)('Players the integrity review flagged (under review or decided), highest score first, keyset-paged (x-api-key)', {
      tags: ['airdrop', 'operator'],
      querystring: flagsQuery,
      response: { 200: flagsPageSchema, ...errorResponses },
    }),
    async (request) => listFlags(ctx.db, pageOpts(cursorKey, request.query)),
  );
};

const userIdParam = obj({ id: int(1, Number.MAX_SAFE_INTEGER) }, ['id']);
const note = { type: 'string', maxLength: noteMaxLength };

export const integrityConsoleRoutes = consoleScope(async (app, ctx) => {
  const cursorKey = flagsCursorKeyOf(ctx.config);
  app.get<{ Querystring: FlagsQuery; Reply: ConsoleFlagsPage }>(
    '/integrity/flags',
    {
      schema: {
        querystring: flagsQuery,
        response: { 200: objectOf<ConsoleFlagsPage>()({ items: arrayOf(flagRowSchema), nextCursor: 'string?', openReviews: 'integer' }), ...consoleErrorResponses },
      },
    },
    async (request) => ({
      ...(await listFlagRows(ctx.db, pageOpts(cursorKey, request.query))),
      openReviews: await openReviews(ctx.db),
    }),
  );
  app.get<{ Params: { id: number }; Reply: PlayerFlag }>(
    '/integrity/players/:id',
    { schema: { params: userIdParam, response: { 200: objectOf<PlayerFlag>()({ player: nullable(flagRowSchema) }), ...consoleErrorResponses } } },
    async (request) => ({ player: await flagOfPlayer(ctx.db, request.params.id) }),
  );
  /** A console decision on a flagged player: `field` takes one of `words` (with an optional note), and `decide` records it. */
  const decisionRoute = <W extends string>(
    path: string,
    field: string,
    words: readonly W[],
    decide: (db: ConsoleContext['db'], actor: Parameters<typeof decideReview>[1], userId: number, word: W, note: string | undefined, nowMs: number) => Promise<AirdropFlagRow>,
  ) =>
    app.post<{ Params: { id: number }; Body: Record<string, string | undefined>; Reply: AirdropFlagRow }>(
      `/integrity/players/:id/${path}`,
      { schema: { params: userIdParam, body: obj({ [field]: { type: 'string', enum: words }, note }, [field]), response: { 200: flagRowSchema, ...consoleErrorResponses } } },
      async (request) => {
        const actor = actorOf(request);
        return decide(ctx.db, actor, request.params.id, request.body[field] as W, request.body.note, ctx.clock.now());
      },
    );
  decisionRoute('decision', 'decision', ['clear', 'exclude'], decideReview);
  decisionRoute('appeal', 'outcome', ['upheld', 'overturned'], decideAppeal);
});
