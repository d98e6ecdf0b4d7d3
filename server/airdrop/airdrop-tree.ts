/**
 * The TEP-177 airdrop dictionary (docs/airdrop.md): `HashmapE 267 AirdropItem`, key = addr_std
 * (267 bits), value `amount:Coins start_from:uint48 expired_at:uint48`.
 *
 * @ton/core's own Dictionary builds and proves it through 267-character bit strings and Map
 * copies: about 25 s per 100,000 entries, and every proof re-serializes the whole dictionary. This
 * module builds the same cells (same labels, same hashes: tests compare with @ton/core) from the
 * sorted keys in one pass, and keeps them in flat arrays: a node's data bits, its two children,
 * its hash and depth. A proof walks one path and prunes each sibling from its stored hash.
 */
import { hash } from 'node:crypto';
import type { Address, Cell} from '@ton/core';
import { BitString, beginCell, convertToMerkleProof } from '@ton/core';

export const keyBits = 267;
const keyBytes = 34;
/** ceil(log2(n + 1)) for every n ≤ 267: the width of a label's length field (hml_long, hml_same). */
const lenWidth = Array.from({ length: keyBits + 1 }, (_, n) => Math.ceil(Math.log2(n + 1)));

export interface AirdropItem {
  /** Jetton units (9 decimals). */
  amount: bigint;
  startFrom: number;
  expireAt: number;
}

/** The dictionary as flat arrays; node `root` is the dictionary's root cell. */
export interface AirdropTree {
  readonly nodes: number;
  readonly root: number;
  /** Data bytes of every node, node i at dataStart[i], dataBits[i] bits long. */
  readonly data: Buffer;
  readonly dataStart: Uint32Array;
  readonly dataBits: Uint16Array;
  /** Children of a fork (-1 for a leaf). */
  readonly left: Int32Array;
  readonly right: Int32Array;
  /** Representation hash (32 bytes each) and depth of every node's cell. */
  readonly hashes: Buffer;
  readonly depths: Uint16Array;
}

/** The 267-bit dictionary key of an address, left-aligned in 34 bytes (addr_std$10, no anycast). */
export const addressKey = (a: Address): Buffer => keyOf(a.workChain, a.hash);

/** The same key from a stored raw address `0:<64 hex>` (no Address object: a million of them add up). */
export const rawAddressKey = (raw: string): Buffer => {
  const colon = raw.indexOf(':');
  const hash = Buffer.from(raw.slice(colon + 1), 'hex');
  if (colon < 1 || hash.length !== 32) throw new Error(`not a raw address: ${raw}`);
  return keyOf(Number(raw.slice(0, colon)), hash);
};

const keyOf = (workChain: number, hash: Buffer): Buffer => {
  const k = Buffer.alloc(keyBytes);
  // The first 11 bits: 1 0 (addr_std), 0 (no anycast), workchain int8; then the 256-bit hash.
  const prefix = (0b100 << 8) | (workChain & 0xff);
  k[0] = prefix >> 3;
  k[1] = (prefix & 7) << 5;
  for (let i = 0; i < 32; i++) {
    k[1 + i]! |= hash[i]! >> 3;
    k[2 + i]! |= (hash[i]! & 7) << 5;
  }
  return k;
};

const bitAt = (buf: Buffer, i: number): number => (buf[i >> 3]! >> (7 - (i & 7))) & 1;

/** Appends bits MSB-first to a growable byte buffer. */
class BitWriter {
  buf = Buffer.alloc(1 << 20);
  pos = 0; // in bits
  /** Room for one more cell (≤ 1023 bits). */
  reserve() {
    if ((this.pos >> 3) + 160 < this.buf.length) return;
    const next = Buffer.alloc(this.buf.length * 2);
    this.buf.copy(next);
    this.buf = next;
  }
  bit(b: number) {
    if (b) this.buf[this.pos >> 3]! |= 0x80 >> (this.pos & 7);
    this.pos++;
  }
  /** An unsigned integer of at most 48 bits. */
  uint(v: number, width: number) {
    if (width > 24) {
      this.uint(Math.floor(v / 0x1000000), width - 24);
      v %= 0x1000000;
      width = 24;
    }
    for (let i = width - 1; i >= 0; i--) this.bit((v >> i) & 1);
  }
  /** Bits [from, from + len) of a key, eight at a time (keys have a spare zero byte at the end). */
  keyBits(key: Buffer, from: number, len: number) {
    while (len >= 8) {
      const b = from >> 3;
      const byte = (((key[b]! << 8) | (key[b + 1] ?? 0)) >> (8 - (from & 7))) & 0xff;
      const shift = this.pos & 7;
      const at = this.pos >> 3;
      this.buf[at]! |= byte >> shift;
      if (shift !== 0) this.buf[at + 1]! |= (byte << (8 - shift)) & 0xff;
      this.pos += 8;
      from += 8;
      len -= 8;
    }
    for (let i = from, end = from + len; i < end; i++) this.bit((key[i >> 3]! >> (7 - (i & 7))) & 1);
  }
  /** Starts the next node on a byte boundary (each node's data is addressed by byte). */
  align() {
    this.pos = (this.pos + 7) & ~7;
  }
}

/** HmLabel, choosing hml_short / hml_long / hml_same exactly as the TL-B serializers do (shortest, short on ties). */
const writeLabel = (w: BitWriter, key: Buffer, from: number, len: number, n: number) => {
  const width = lenWidth[n]!;
  const shortLen = 2 + 2 * len;
  const longLen = 2 + width + len;
  let same = true;
  for (let i = 1; i < len && same; i++) same = bitAt(key, from + i) === bitAt(key, from);
  const sameLen = 3 + width;
  const kind = same && sameLen < Math.min(shortLen, longLen) ? 'same' : longLen < shortLen ? 'long' : 'short';
  if (kind === 'short') {
    w.bit(0);
    for (let i = 0; i < len; i++) w.bit(1);
    w.bit(0);
    w.keyBits(key, from, len);
  } else if (kind === 'long') {
    w.bit(1);
    w.bit(0);
    w.uint(len, width);
    w.keyBits(key, from, len);
  } else {
    w.bit(1);
    w.bit(1);
    w.bit(bitAt(key, from));
    w.uint(len, width);
  }
};

const writeValue = (w: BitWriter, v: AirdropItem) => {
  // Coins = VarUInteger 16: a 4-bit byte count, then the bytes.
  let hex = v.amount.toString(16);
  if (hex.length % 2 === 1) hex = `0${hex}`;
  w.uint(v.amount === 0n ? 0 : hex.length / 2, 4);
  if (v.amount !== 0n) for (let k = 0; k < hex.length; k++) w.uint(parseInt(hex[k]!, 16), 4);
  w.uint(v.startFrom, 48);
  w.uint(v.expireAt, 48);
};

const scratch = Buffer.alloc(2 + 128 + 2 * 2 + 2 * 32);

/** Representation hash of an ordinary level-0 cell (TVM cell serialization, docs/airdrop.md). */
export const ordinaryCellHash = (data: Buffer, bits: number, refHashes: Buffer[], refDepths: number[]): Buffer => {
  const bytes = (bits + 7) >> 3;
  scratch[0] = refHashes.length;
  scratch[1] = Math.floor(bits / 8) + bytes;
  data.copy(scratch, 2, 0, bytes);
  // A partial last byte carries the completion tag: a 1 bit, then zeros.
  if (bits % 8 !== 0) scratch[1 + bytes]! |= 0x80 >> (bits % 8);
  let p = 2 + bytes;
  for (const depth of refDepths) p = scratch.writeUInt16BE(depth, p);
  for (const r of refHashes) p += r.copy(scratch, p);
  return hash('sha256', scratch.subarray(0, p), 'buffer');
};

/** Index of the first entry in [lo, hi) whose key has bit `bit` set (keys sorted, equal before `bit`). */
const firstOne = (keys: Buffer[], lo: number, hi: number, bit: number): number => {
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (bitAt(keys[mid]!, bit)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
};

/** The first bit at which two keys differ (they differ somewhere: keys are unique). */
const firstDiff = (a: Buffer, b: Buffer): number => {
  let i = 0;
  while (a[i] === b[i]) i++;
  return i * 8 + Math.clz32(a[i]! ^ b[i]!) - 24;
};

/**
 * Builds the dictionary from entries sorted by key (Buffer.compare on addressKey) with no duplicate.
 * Throws on an empty list: an airdrop dictionary always has an entry.
 */
export const buildAirdropTree = (keys: Buffer[], items: AirdropItem[]): AirdropTree => {
  const count = keys.length;
  if (count === 0) throw new Error('an airdrop dictionary needs at least one entry');
  for (let k = 1; k < count; k++) if (Buffer.compare(keys[k - 1]!, keys[k]!) >= 0) throw new Error(`keys must be sorted and unique (at ${k})`);
  const nodes = 2 * count - 1;
  const dataStart = new Uint32Array(nodes);
  const dataBits = new Uint16Array(nodes);
  const left = new Int32Array(nodes).fill(-1);
  const right = new Int32Array(nodes).fill(-1);
  const hashes = Buffer.alloc(nodes * 32);
  const depths = new Uint16Array(nodes);
  const w = new BitWriter();
  let next = 0;

  const noRefs: Buffer[] = [];
  const noDepths: number[] = [];
  const finish = (i: number) => {
    dataBits[i] = w.pos - dataStart[i]! * 8;
    const data = w.buf.subarray(dataStart[i]!, dataStart[i]! + ((dataBits[i]! + 7) >> 3));
    const l = left[i]!;
    const r = right[i]!;
    const fork = l >= 0;
    const h = fork
      ? ordinaryCellHash(data, dataBits[i]!, [hashes.subarray(l * 32, l * 32 + 32), hashes.subarray(r * 32, r * 32 + 32)], [depths[l]!, depths[r]!])
      : ordinaryCellHash(data, dataBits[i]!, noRefs, noDepths);
    h.copy(hashes, i * 32);
    depths[i] = fork ? Math.max(depths[l]!, depths[r]!) + 1 : 0;
    w.align();
  };

  // Post-order: children get lower indices than their parent; the root is the last node.
  const edge = (lo: number, hi: number, pos: number): number => {
    const n = keyBits - pos;
    if (hi - lo === 1) {
      const i = next++;
      w.reserve();
      dataStart[i] = w.pos >> 3;
      writeLabel(w, keys[lo]!, pos, n, n);
      writeValue(w, items[lo]!);
      finish(i);
      return i;
    }
    const d = firstDiff(keys[lo]!, keys[hi - 1]!);
    const m = firstOne(keys, lo, hi, d);
    const l = edge(lo, m, d + 1);
    const r = edge(m, hi, d + 1);
    const i = next++;
    w.reserve();
    dataStart[i] = w.pos >> 3;
    writeLabel(w, keys[lo]!, pos, d - pos, n);
    left[i] = l;
    right[i] = r;
    finish(i);
    return i;
  };
  const root = edge(0, count, 0);
  return { nodes, root, data: w.buf.subarray(0, w.pos >> 3), dataStart, dataBits, left, right, hashes, depths };
};

export const rootHash = (t: AirdropTree): Buffer => t.hashes.subarray(t.root * 32, t.root * 32 + 32);

const nodeBits = (t: AirdropTree, i: number) => new BitString(t.data, t.dataStart[i]! * 8, t.dataBits[i]!);

/** Reads a node's label: its length, and the bit offset where the node's payload starts. */
const readLabel = (t: AirdropTree, i: number, n: number, key: Buffer, keyPos: number): { len: number; after: number; match: boolean } => {
  const base = t.dataStart[i]! * 8;
  const b = (k: number) => bitAt(t.data, base + k);
  const width = lenWidth[n]!;
  const readUint = (at: number, bits: number) => {
    let v = 0;
    for (let k = 0; k < bits; k++) v = v * 2 + b(at + k);
    return v;
  };
  let len: number;
  let after: number;
  let match = true;
  if (b(0) === 0) {
    len = 0;
    while (b(1 + len) === 1) len++;
    after = 2 + len + len;
    for (let k = 0; k < len && match; k++) match = b(2 + len + k) === bitAt(key, keyPos + k);
  } else if (b(1) === 0) {
    len = readUint(2, width);
    after = 2 + width + len;
    for (let k = 0; k < len && match; k++) match = b(2 + width + k) === bitAt(key, keyPos + k);
  } else {
    const bit = b(2);
    len = readUint(3, width);
    after = 3 + width;
    for (let k = 0; k < len && match; k++) match = bit === bitAt(key, keyPos + k);
  }
  return { len, after, match };
};

/** The path of nodes from the root to the key's leaf, or null when the key is not in the dictionary. */
export const pathTo = (t: AirdropTree, key: Buffer): { path: number[]; valueAt: number } | null => {
  const path: number[] = [];
  let i = t.root;
  let pos = 0;
  for (;;) {
    const n = keyBits - pos;
    const label = readLabel(t, i, n, key, pos);
    if (!label.match) return null;
    path.push(i);
    pos += label.len;
    if (pos === keyBits) return { path, valueAt: t.dataStart[i]! * 8 + label.after };
    i = bitAt(key, pos) === 0 ? t.left[i]! : t.right[i]!;
    pos++;
  }
};

export type Path = NonNullable<ReturnType<typeof pathTo>>;

export const itemAt = (t: AirdropTree, found: Path): AirdropItem => {
  const leaf = found.path[found.path.length - 1]!;
  const end = t.dataStart[leaf]! * 8 + t.dataBits[leaf]!;
  const slice = beginCell().storeBits(new BitString(t.data, found.valueAt, end - found.valueAt)).endCell().beginParse();
  return { amount: slice.loadCoins(), startFrom: slice.loadUint(48), expireAt: slice.loadUint(48) };
};

/** The item stored under an address, or null. */
export const lookup = (t: AirdropTree, address: Address): AirdropItem | null => {
  const found = pathTo(t, addressKey(address));
  return found === null ? null : itemAt(t, found);
};

const prunedBranch = (t: AirdropTree, i: number): Cell =>
  beginCell()
    .storeUint(1, 8)
    .storeUint(1, 8)
    .storeBuffer(t.hashes.subarray(i * 32, i * 32 + 32))
    .storeUint(t.depths[i]!, 16)
    .endCell({ exotic: true });

const proofAlong = (t: AirdropTree, found: Path): Cell => {
  let cell: Cell | null = null;
  for (let k = found.path.length - 1; k >= 0; k--) {
    const i = found.path[k]!;
    const b = beginCell().storeBits(nodeBits(t, i));
    if (cell !== null) {
      const onPath = found.path[k + 1]!;
      const l = t.left[i]!;
      const r = t.right[i]!;
      b.storeRef(l === onPath ? cell : prunedBranch(t, l)).storeRef(r === onPath ? cell : prunedBranch(t, r));
    }
    cell = b.endCell();
  }
  return convertToMerkleProof(cell!);
};

/**
 * The MerkleProof exotic cell that proves one address's item (TEP-177): the dictionary with every
 * branch off the address's path pruned. Null when the address is not in the dictionary.
 */
export const merkleProof = (t: AirdropTree, address: Address): Cell | null => {
  const found = pathTo(t, addressKey(address));
  return found === null ? null : proofAlong(t, found);
};

/** TEP-177 `merkle_airdrop_claim#0df602d6 proof:^Cell = CustomPayload`. */
export const claimOp = 0x0df602d6;
export const claimPayload = (proof: Cell): Cell => beginCell().storeUint(claimOp, 32).storeRef(proof).endCell();
