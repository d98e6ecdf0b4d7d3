import { describe, expect, it } from 'vitest';
import { Money, toWire } from './money.ts';

describe('toWire', () => {
  it('answers what the decimal round trip answers, with or without its shortcut', () => {
    const inputs: (string | number)[] = [
      0, -0, 5, -5, 777, Number.MAX_SAFE_INTEGER, 1.5, 0.1, 1e21, 2 ** 60,
      '0', '-0', '5', '-5', '0.5', '-0.5', '1.50', '0.10', '00', '007', '1.', '.5', '+3', '1e3', '100', '12345678901234567890.123',
    ];
    for (const v of inputs) expect(toWire(v), String(v)).toBe(new Money(v).toFixed());
  });

  it('normalizes a stored amount with trailing zeros and passes a wire string through', () => {
    expect(toWire('2.00')).toBe('2');
    expect(toWire('1234.5')).toBe('1234.5');
    expect(toWire(new Money('3.10'))).toBe('3.1');
  });
});
