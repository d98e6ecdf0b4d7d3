/**
 * A wire type (engine/wire/api-types.ts) and its JSON schema (server/routes/schemas.ts) cannot drift:
 * `objectOf<T>()` takes exactly T's fields, each of a kind or schema that fits it, so a field added
 * to one side only fails typecheck (npm test runs tsc over tests/). Each `@ts-expect-error` below
 * is a drift tsc must refuse: were it accepted, the directive itself would fail typecheck.
 */
import { describe, expect, it } from 'vitest';
import type { AgeReward, ClaimResult, FriendEntry, Page, Task, UserStatus } from '../../engine/wire/api-types.ts';
import {
  ageRewardSchema,
  arrayOf,
  described,
  enumOf,
  friendSchema,
  nullable,
  nullableEnumOf,
  objectOf,
  variantsOf,
  pageOf,
  recordOf,
  taskSchema,
  userStatusSchema,
  type Schema,
} from '../../server/routes/schemas.ts';

/** Type-only checks: never called. */
const typeChecks = () => {
  const reward = { avgAge: 'number', teleReward: 'decimal', twReward: 'decimal', premiumReward: 'decimal', total: 'decimal' } as const;
  objectOf<AgeReward>()(reward);
  // @ts-expect-error a field of the type missing from the schema
  objectOf<AgeReward>()({ avgAge: 'number', teleReward: 'decimal', twReward: 'decimal', premiumReward: 'decimal' });
  // @ts-expect-error a field of the schema missing from the type
  objectOf<AgeReward>()({ ...reward, bonus: 'decimal' });
  // @ts-expect-error the type gained a field the schema lacks
  objectOf<AgeReward & { bonus: string }>()(reward);
  // @ts-expect-error the type lost a field the schema still lists
  objectOf<Omit<AgeReward, 'total'>>()(reward);
  // @ts-expect-error a number field described as a string
  objectOf<AgeReward>()({ ...reward, avgAge: 'decimal' });

  // Nullability is exact: `number | null` is 'integer?', never 'integer'; a non-null field never '…?'.
  objectOf<{ n: number | null; s: string }>()({ n: 'integer?', s: 'string' });
  // @ts-expect-error a nullable field without null
  objectOf<{ n: number | null }>()({ n: 'integer' });
  // @ts-expect-error a non-null field described as nullable
  objectOf<{ s: string }>()({ s: 'string?' });
  // An optional field is a key like any other (the serializer omits it when undefined).
  objectOf<{ o?: number }>()({ o: 'integer' });
  // @ts-expect-error an optional field forgotten
  objectOf<{ o?: number; p: number }>()({ p: 'integer' });

  // A nested schema is the schema of exactly the field's type.
  objectOf<ClaimResult>()({ claimed: 'decimal', status: userStatusSchema });
  // @ts-expect-error the schema of another type
  objectOf<ClaimResult>()({ claimed: 'decimal', status: ageRewardSchema });
  // @ts-expect-error a plain object is no schema of any type
  objectOf<ClaimResult>()({ claimed: 'decimal', status: { type: 'object' } });
  // @ts-expect-error the status schema is not the schema of a status with one more field
  const grown: Schema<UserStatus & { extra: string }> = userStatusSchema;
  // @ts-expect-error nor of a status with one field fewer
  const shrunk: Schema<Omit<UserStatus, 'totalClick'>> = userStatusSchema;

  // Enums and arrays: the values listed are exactly the type's.
  objectOf<Pick<FriendEntry, 'waitingFor'>>()({ waitingFor: arrayOf(enumOf(['clicks', 'channel'])) });
  // @ts-expect-error a value of the type the enum lacks
  objectOf<Pick<FriendEntry, 'waitingFor'>>()({ waitingFor: arrayOf(enumOf(['clicks'])) });
  // @ts-expect-error an array of numbers for an array of strings
  objectOf<{ a: string[] }>()({ a: arrayOf('integer') });
  // @ts-expect-error a page of tasks is no page of friends
  const friends: Schema<Page<FriendEntry>> = pageOf(taskSchema);
  const tasks: Schema<Page<Task>> = pageOf(taskSchema);
  // A tagged union (the console's broadcast segment): every variant's fields, each one exactly once.
  type Segment = { kind: 'all' } | { kind: 'days'; days: number };
  variantsOf<Segment>()({ kind: enumOf(['all', 'days']), days: 'integer' });
  // @ts-expect-error a variant's field missing
  variantsOf<Segment>()({ kind: enumOf(['all', 'days']) });
  // @ts-expect-error a field no variant has
  variantsOf<Segment>()({ kind: enumOf(['all', 'days']), days: 'integer', userIds: 'string' });
  // A nullable enum takes null only where the type does.
  objectOf<{ d: 'a' | null }>()({ d: nullableEnumOf(['a']) });
  // @ts-expect-error a non-null enum described as nullable
  objectOf<{ d: 'a' }>()({ d: nullableEnumOf(['a']) });
  return [grown, shrunk, friends, tasks, recordOf, described, nullable];
};

describe('wire schemas', () => {
  it('are the JSON schemas the serializer and the OpenAPI document read', () => {
    expect(typeof typeChecks).toBe('function');
    expect(ageRewardSchema).toEqual({
      type: 'object',
      properties: {
        avgAge: { type: 'number' },
        teleReward: expect.objectContaining({ type: 'string' }),
        twReward: expect.objectContaining({ type: 'string' }),
        premiumReward: expect.objectContaining({ type: 'string' }),
        total: expect.objectContaining({ type: 'string' }),
      },
      required: ['avgAge', 'teleReward', 'twReward', 'premiumReward', 'total'],
    });
    expect(userStatusSchema.properties.passiveEarnLevel).toEqual({ type: 'object', additionalProperties: { type: 'integer' } });
    expect(userStatusSchema.properties.language).toEqual({ type: ['string', 'null'], description: expect.any(String) });
    expect(friendSchema.properties.waitingFor).toEqual({ type: 'array', items: { type: 'string', enum: ['clicks', 'channel'] }, description: expect.any(String) });
    expect(objectOf<{ n: number | null }>()({ n: 'integer?' }, ['n'])).toEqual({ type: 'object', properties: { n: { type: ['integer', 'null'] } }, required: ['n'] });
    expect(nullable(objectOf<{ a: string }>()({ a: 'string' }))).toEqual({ type: ['object', 'null'], properties: { a: { type: 'string' } } });
    expect(pageOf(taskSchema).properties.items).toEqual({ type: 'array', items: taskSchema });
  });
});
