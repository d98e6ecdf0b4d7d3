/**
 * The integrity review's HTTP side (docs/airdrop.md "Integrity review"):
 * - operator (x-api-key = OPERATOR_API_KEY): GET /public/airdrop/flags, the flagged players,
 *   highest score first, keyset-paged (`cursor` from the previous page's `nextCursor`);
 * - console (signed in, docs/admin.md "Review"): the same list with the evidence behind each
 *   reason, and the decisions (clear, exclude, an appeal), each one action with its audit row.
 */
import type { FastifyPluginAsync } from 'fastify';
import { airdropReasonCodes, airdropReviewStates, type AirdropReviewState } from '../../engine/airdrop-review.ts';
import { actorOf } from '../console/exports.ts';
import { decideAppeal, decideReview, flagOfPlayer, flagsCursorKeyOf, flagsPageMax, listFlagRows, listFlags, noteMaxLength, openReviews } from '../integrity/exports.ts';
import { consoleScope, type ConsoleContext, type RouteContext } from './route-context.ts';
import { errorResponses, operatorRoute } from './schemas.ts';
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

const flagSchema = {
  type: 'object',
  properties: {
    userId: { type: 'string' },
    score: { type: 'integer' },
    state: { type: 'string', enum: [...airdropReviewStates] },
    reasons: { type: 'array', items: { type: 'string', enum: airdropReasonCodes } },
  },
} as const;
const flagsPageSchema = { type: 'object', properties: { items: { type: 'array', items: flagSchema }, nextCursor: { type: ['string', 'null'] } } } as const;

const pageOpts = (cursorKey: Buffer, q: FlagsQuery) => ({ cursorKey, limit: q.limit ?? 50, ...(q.cursor !== undefined ? { cursor: q.cursor } : {}), ...(q.state !== undefined ? { state: q.state } : {}) });

export const integrityRoutes: FastifyPluginAsync<RouteContext> = async (app, ctx) => {
  const cursorKey = flagsCursorKeyOf(ctx.config);
  app.get<{ Querystring: FlagsQuery }>(
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
  app.get<{ Querystring: FlagsQuery }>('/integrity/flags', { schema: { querystring: flagsQuery } }, async (request) => ({
    ...(await listFlagRows(ctx.db, pageOpts(cursorKey, request.query))),
    openReviews: await openReviews(ctx.db),
  }));
  app.get<{ Params: { id: number } }>('/integrity/players/:id', { schema: { params: userIdParam } }, async (request) => ({
    player: await flagOfPlayer(ctx.db, request.params.id),
  }));
  /** A console decision on a flagged player: `field` takes one of `words` (with an optional note), and `decide` records it. */
  const decisionRoute = <W extends string>(
    path: string,
    field: string,
    words: readonly W[],
    decide: (db: ConsoleContext['db'], actor: Parameters<typeof decideReview>[1], userId: number, word: W, note: string | undefined, nowMs: number) => Promise<unknown>,
  ) =>
    app.post<{ Params: { id: number }; Body: Record<string, string | undefined> }>(
      `/integrity/players/:id/${path}`,
      { schema: { params: userIdParam, body: obj({ [field]: { type: 'string', enum: words }, note }, [field]) } },
      async (request) => {
        const actor = actorOf(request);
        return decide(ctx.db, actor, request.params.id, request.body[field] as W, request.body.note, ctx.clock.now());
      },
    );
  decisionRoute('decision', 'decision', ['clear', 'exclude'], decideReview);
  decisionRoute('appeal', 'outcome', ['upheld', 'overturned'], decideAppeal);
});
