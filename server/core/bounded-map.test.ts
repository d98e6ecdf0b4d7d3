import { describe, expect, it } from 'vitest';
import { BoundedMap } from './bounded-map.ts';

describe('BoundedMap', () => {
  it('keeps at most its limit, dropping an entry not used since it was added first', () => {
    const m = new BoundedMap<number, string>(3);
    m.set(1, 'a');
    m.set(2, 'b');
    m.set(3, 'c');
    expect(m.get(1)).toBe('a'); // used: gets a second chance
    m.set(4, 'd');
    expect(m.get(2)).toBeUndefined();
    expect([1, 3, 4].map((k) => m.get(k))).toEqual(['a', 'c', 'd']);
  });

  it('replaces a value in place and forgets a deleted key', () => {
    const m = new BoundedMap<string, number>(2);
    m.set('x', 1);
    m.set('x', 2);
    expect(m.get('x')).toBe(2);
    m.delete('x');
    expect(m.get('x')).toBeUndefined();
  });

  it('still drops one entry when every entry was used', () => {
    const m = new BoundedMap<number, number>(2);
    m.set(1, 1);
    m.set(2, 2);
    m.get(1);
    m.get(2);
    m.set(3, 3);
    expect([1, 2, 3].filter((k) => m.get(k) !== undefined)).toHaveLength(2);
    expect(m.get(3)).toBe(3);
  });
});
