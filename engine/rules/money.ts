import DecimalJs from 'decimal.js';

/**
 * Money is exact: a decimal.js clone with enough precision for the largest price of the table
 * (about 10^1526 with its cents) and plain notation, so `toString()` is always a wire string.
 */
export const Money = DecimalJs.clone({
  precision: 2_000,
  rounding: DecimalJs.ROUND_HALF_UP,
  toExpPos: 9e15,
  toExpNeg: -9e15,
});
export type Money = InstanceType<typeof Money>;
export type MoneyInput = Money | string | number | bigint;

/** A decimal amount on the wire, e.g. "1234.50": what `toWire` writes. */
export type DecimalString = string;

const cents = 2;

/** Converts a wire string, number or bigint to Money. */
export const money = (value: MoneyInput): Money =>
  value instanceof Money ? value : new Money(typeof value === 'bigint' ? value.toString() : value);

export const zero = money(0);

/** Rounds an amount to the cent: prices round up, credits round down (docs/rules.md §2). */
export const roundCents = (value: MoneyInput, kind: 'price' | 'credit'): Money =>
  money(value).toDecimalPlaces(cents, kind === 'price' ? Money.ROUND_CEIL : Money.ROUND_FLOOR);

// A wire string already: optional minus, no leading zeros, a fraction without trailing zeros ("-0" is not).
const wireForm = /^-?(?:0|[1-9]\d*)(?:\.\d*[1-9])?$/;

/**
 * The wire form of an amount: a plain decimal string, never exponent notation. A safe integer, or a
 * string already in that form, is returned without a decimal round trip (the same string: a status
 * answer carries about ten amounts, most of them whole numbers or stored wire strings).
 */
export const toWire = (value: MoneyInput): DecimalString => {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value === 0 ? '0' : String(value);
  if (typeof value === 'string' && value !== '-0' && wireForm.test(value)) return value;
  return money(value).toFixed();
};

/** Sums amounts exactly. */
export const sum = (values: Iterable<MoneyInput>): Money => {
  let total = zero;
  for (const v of values) total = total.plus(money(v));
  return total;
};
