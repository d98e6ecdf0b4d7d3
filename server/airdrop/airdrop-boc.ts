/**
 * The airdrop dictionary as a standard bag of cells (`serialized_boc#b5ee9c72`, with CRC32-C), the
 * form a mintless jetton's Merkle dump is published in (TEP-177 `mintles_merkle_dump_uri`).
 * Written and read straight from the flat tree (airdrop-tree.ts): @ton/core's own toBoc and
 * fromBoc take minutes and gigabytes at a million entries. Tests read our BoC with Cell.fromBoc.
 */
import { crc32c } from '@ton/core';
import { claimOp, ordinaryCellHash, type AirdropTree, type Path } from './airdrop-tree.ts';

const magic = 0xb5ee9c72;
const bytesFor = (n: number) => Math.max(1, Math.ceil(Math.log2(n + 1) / 8));

const writeUint = (buf: Buffer, at: number, v: number, bytes: number) => {
  for (let k = bytes - 1; k >= 0; k--) {
    buf[at + k] = v % 256;
    v = Math.floor(v / 256);
  }
};

const readUint = (buf: Buffer, at: number, bytes: number) => {
  let v = 0;
  for (let k = 0; k < bytes; k++) v = v * 256 + buf[at + k]!;
  return v;
};

/** Serializes the tree, root first (cell 0), every parent before its children. */
export const treeToBoc = (t: AirdropTree): Buffer => {
  const n = t.nodes;
  const size = bytesFor(n);
  const cellBytes = (i: number) => 2 + ((t.dataBits[i]! + 7) >> 3) + (t.left[i]! >= 0 ? 2 * size : 0);
  let total = 0;
  for (let i = 0; i < n; i++) total += cellBytes(i);
  const off = bytesFor(total);
  const headerLen = 4 + 1 + 1 + 3 * size + off + size;
  const out = Buffer.alloc(headerLen + total + 4);
  out.writeUInt32BE(magic, 0);
  out[4] = 0x40 | size; // has_crc32c, no index, no cache bits
  out[5] = off;
  let p = 6;
  writeUint(out, p, n, size);
  writeUint(out, (p += size), 1, size); // roots
  writeUint(out, (p += size), 0, size); // absent
  writeUint(out, (p += size), total, off);
  writeUint(out, (p += off), 0, size); // the root is cell 0
  p += size;
  // Cell b of the BoC is tree node n - 1 - b (the tree is post-order: the root is its last node).
  for (let b = 0; b < n; b++) {
    const i = n - 1 - b;
    const bits = t.dataBits[i]!;
    const bytes = (bits + 7) >> 3;
    const fork = t.left[i]! >= 0;
    out[p] = fork ? 2 : 0;
    out[p + 1] = Math.floor(bits / 8) + bytes;
    t.data.copy(out, p + 2, t.dataStart[i]!, t.dataStart[i]! + bytes);
    if (bits % 8 !== 0) out[p + 1 + bytes]! |= 0x80 >> (bits % 8);
    p += 2 + bytes;
    if (fork) {
      writeUint(out, p, n - 1 - t.left[i]!, size);
      writeUint(out, p + size, n - 1 - t.right[i]!, size);
      p += 2 * size;
    }
  }
  crc32c(out.subarray(0, p)).copy(out, p);
  return out;
};

/** Reads a BoC written by treeToBoc back into a tree, recomputing every hash. Throws on anything else. */
export const treeFromBoc = (boc: Buffer): AirdropTree => {
  if (boc.length < 10 || boc.readUInt32BE(0) !== magic) throw new Error('not a bag of cells');
  const flags = boc[4]!;
  if ((flags & 0xe0) !== 0x40) throw new Error('expected a BoC with CRC32-C and no index');
  if (!crc32c(boc.subarray(0, boc.length - 4)).equals(boc.subarray(boc.length - 4))) throw new Error('BoC checksum mismatch');
  const size = flags & 7;
  const off = boc[5]!;
  let p = 6;
  const n = readUint(boc, p, size);
  const roots = readUint(boc, (p += size), size);
  p += 2 * size + off;
  if (roots !== 1 || readUint(boc, p, size) !== 0) throw new Error('expected one root, cell 0');
  p += size;
  const data = Buffer.alloc(boc.length);
  const dataStart = new Uint32Array(n);
  const dataBits = new Uint16Array(n);
  const left = new Int32Array(n).fill(-1);
  const right = new Int32Array(n).fill(-1);
  let q = 0;
  for (let b = 0; b < n; b++) {
    const i = n - 1 - b;
    const d1 = boc[p]!;
    const d2 = boc[p + 1]!;
    if (d1 !== 0 && d1 !== 2) throw new Error(`cell ${b}: a dictionary cell has 0 or 2 refs and is ordinary`);
    const bytes = (d2 + 1) >> 1;
    boc.copy(data, q, p + 2, p + 2 + bytes);
    let bits = bytes * 8;
    if (d2 % 2 === 1) {
      const last = data[q + bytes - 1]!;
      const tag = last & -last; // the completion tag: the lowest set bit
      if (tag === 0) throw new Error(`cell ${b}: missing completion tag`);
      bits = (bytes - 1) * 8 + (7 - Math.log2(tag));
      data[q + bytes - 1] = last ^ tag;
    }
    dataStart[i] = q;
    dataBits[i] = bits;
    q += bytes;
    p += 2 + bytes;
    if (d1 === 2) {
      left[i] = n - 1 - readUint(boc, p, size);
      right[i] = n - 1 - readUint(boc, p + size, size);
      if (left[i]! >= i || right[i]! >= i || left[i]! < 0 || right[i]! < 0) throw new Error(`cell ${b}: refs must point to later cells`);
      p += 2 * size;
    }
  }
  const hashes = Buffer.alloc(n * 32);
  const depths = new Uint16Array(n);
  for (let i = 0; i < n; i++) {
    const refs = left[i]! >= 0 ? [left[i]!, right[i]!] : [];
    const h = ordinaryCellHash(data.subarray(dataStart[i]!), dataBits[i]!, refs.map((r) => hashes.subarray(r * 32, r * 32 + 32)), refs.map((r) => depths[r]!));
    h.copy(hashes, i * 32);
    depths[i] = refs.length === 0 ? 0 : Math.max(depths[refs[0]!]!, depths[refs[1]!]!) + 1;
  }
  return { nodes: n, root: n - 1, data: data.subarray(0, q), dataStart, dataBits, left, right, hashes, depths };
};

/**
 * The claim custom payload's BoC for one address, written straight from the tree: the
 * `merkle_airdrop_claim` cell, its MerkleProof, the path's cells and a pruned branch for each
 * sibling. Same bytes' meaning as claimPayload(merkleProof(…)).toBoc() (tests compare the hashes),
 * without building and hashing @ton/core cells on every request.
 *
 * Descriptors (TVM cell serialization): d1 = refs + 8·exotic + 32·level mask, d2 = ⌈bits/8⌉ + ⌊bits/8⌋.
 * A pruned branch has level mask 1, so does every fork on the path (it holds one); the MerkleProof
 * lowers it back to 0.
 */
export const claimPayloadBoc = (t: AirdropTree, found: Path): Buffer => {
  const path = found.path;
  const forks = path.length - 1;
  // Cells: 0 payload, 1 proof, 2..2+forks path nodes (the leaf last), then one pruned branch per fork.
  const count = 2 + path.length + forks;
  const prunedIndex = (k: number) => 2 + path.length + k;
  const nodeBytes = (i: number) => (t.dataBits[i]! + 7) >> 3;
  const size = bytesFor(count);
  let total = 2 + 4 + size + (2 + 35 + size) + forks * (2 + 36);
  for (const i of path) total += 2 + nodeBytes(i) + (t.left[i]! >= 0 ? 2 * size : 0);
  const off = bytesFor(total);
  const out = Buffer.alloc(4 + 1 + 1 + 3 * size + off + size + total + 4);
  out.writeUInt32BE(magic, 0);
  out[4] = 0x40 | size;
  out[5] = off;
  let p = 6;
  writeUint(out, p, count, size);
  writeUint(out, (p += size), 1, size);
  writeUint(out, (p += size), 0, size);
  writeUint(out, (p += size), total, off);
  writeUint(out, (p += off), 0, size); // root: cell 0
  p += size;
  const ref = (index: number) => {
    writeUint(out, p, index, size);
    p += size;
  };
  // 0: merkle_airdrop_claim#0df602d6 proof:^Cell
  out[p++] = 1;
  out[p++] = 8;
  p = out.writeUInt32BE(claimOp, p);
  ref(1);
  // 1: MerkleProof (exotic type 3): the root's level-0 hash and depth, one ref.
  out[p++] = 1 + 8;
  out[p++] = 70;
  out[p++] = 3;
  p += t.hashes.copy(out, p, t.root * 32, t.root * 32 + 32);
  p = out.writeUInt16BE(t.depths[t.root]!, p);
  ref(2);
  path.forEach((i, k) => {
    const bits = t.dataBits[i]!;
    const bytes = nodeBytes(i);
    const fork = k < forks;
    out[p++] = fork ? 2 + 32 : 0;
    out[p++] = Math.floor(bits / 8) + bytes;
    t.data.copy(out, p, t.dataStart[i]!, t.dataStart[i]! + bytes);
    if (bits % 8 !== 0) out[p + bytes - 1]! |= 0x80 >> (bits % 8);
    p += bytes;
    if (fork) {
      const next = 2 + k + 1;
      const onLeft = t.left[i] === path[k + 1];
      ref(onLeft ? next : prunedIndex(k));
      ref(onLeft ? prunedIndex(k) : next);
    }
  });
  // Pruned branches (exotic type 1, level mask 1): the sibling's hash and depth.
  for (let k = 0; k < forks; k++) {
    const i = path[k]!;
    const sibling = t.left[i] === path[k + 1] ? t.right[i]! : t.left[i]!;
    out[p++] = 8 + 32;
    out[p++] = 72;
    out[p++] = 1;
    out[p++] = 1;
    p += t.hashes.copy(out, p, sibling * 32, sibling * 32 + 32);
    p = out.writeUInt16BE(t.depths[sibling]!, p);
  }
  crc32c(out.subarray(0, p)).copy(out, p);
  return out;
};
