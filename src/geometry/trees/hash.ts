/**
 * Deterministic hashes for placement: every choice that looks random (jitter, thinning, rotation,
 * the cap's rank) comes from these, seeded by position on a fixed global grid or by an OSM id —
 * never by the request or the tile — so the same place gives the same trees in every request.
 */

/** 32-bit integer mix (lowbias32, Wellons). */
export function mix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Hash of integers (grid indices, a salt) to 32 bits. */
export function hashInts(...values: number[]): number {
  let h = 0x9e3779b9;
  for (const v of values) h = mix32(h ^ mix32(v | 0));
  return h;
}

/** FNV-1a of a string (an OSM id), mixed. */
export function hashString(text: string, salt = 0): number {
  let h = 0x811c9dc5 ^ salt;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return mix32(h >>> 0);
}

/** A 32-bit hash as a number in [0, 1). */
export function unit(h: number): number {
  return h / 4294967296;
}

/** A rank in [0, 1) with ~53 bits from two hashes, so ties between trees are practically impossible. */
export function fineUnit(h1: number, h2: number): number {
  return (h1 + (h2 >>> 11) / 2097152) / 4294967296;
}
