/**
 * TON addresses as clients send them, parsed strictly (docs/airdrop.md "Addresses"). @ton/core is
 * lenient: `Address.parse` takes any integer workchain (`256:<hash>`, which no addr_std can hold:
 * its workchain is an int8) and `Address.parseRaw` drops whatever follows the first non-hex digit.
 *
 * - raw: `<workchain>:<64 hex digits>`, nothing before or after;
 * - user-friendly (where `friendly` is set): 48 characters of base64 or of base64url (not mixed),
 *   36 bytes = tag (bounceable 0x11 or not 0x51, optionally test-only | 0x80), workchain int8,
 *   hash, CRC16 of the 34 bytes before it.
 * In both forms the workchain must be one of `workchains`.
 */
import { Address } from '@ton/core';

export type AddressParse = { ok: true; address: Address } | { ok: false; message: string };

// The workchain as an integer is written (no sign on 0, no leading zeros, no '+').
const raw = /^(0|-?[1-9]\d{0,9}):([0-9a-fA-F]{64})$/;
const base64 = /^[A-Za-z0-9+/]{48}$/;
const base64url = /^[A-Za-z0-9_-]{48}$/;

export const parseTonAddress = (text: string, o: { workchains: readonly number[]; friendly: boolean }): AddressParse => {
  const forms = o.friendly ? `raw <workchain>:<64 hex> or user-friendly (48 base64 characters)` : 'raw <workchain>:<64 hex>';
  const wrong = { ok: false, message: `must be a TON address, ${forms}, workchain ${o.workchains.join(' or ')}` } as const;
  let address: Address;
  const r = raw.exec(text);
  if (r !== null) {
    address = new Address(Number(r[1]), Buffer.from(r[2]!, 'hex'));
  } else if (o.friendly && (base64.test(text) || base64url.test(text))) {
    try {
      // Checks the length, the CRC and the tag; the workchain byte is checked below.
      address = Address.parseFriendly(text).address;
    } catch {
      return wrong;
    }
  } else {
    return wrong;
  }
  return o.workchains.includes(address.workChain) ? { ok: true, address } : wrong;
};
