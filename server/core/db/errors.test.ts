import { describe, expect, it } from 'vitest';
import { DbUnavailable, isUnavailable, provenNotApplied, storageError } from './errors.ts';

/** An error as `pg` raises it for PostgreSQL's ERROR answer. */
const pgError = (code: string, message: string) => Object.assign(new Error(message), { code, severity: 'ERROR' });

describe('storage errors', () => {
  it('takes a statement a standby refused (a failover under way) for the database away, with nothing changed', () => {
    const err = pgError('25006', 'cannot execute INSERT in a read-only transaction');
    expect(isUnavailable(err)).toBe(true);
    const wrapped = storageError(err);
    expect(wrapped).toBeInstanceOf(DbUnavailable);
    expect(provenNotApplied(wrapped)).toBe(true);
  });

  it('keeps a statement’s own fault as it is', () => {
    const err = pgError('23505', 'duplicate key value violates unique constraint');
    expect(isUnavailable(err)).toBe(false);
    expect(storageError(err)).toBe(err);
  });
});
