import { createHash } from 'node:crypto';

/** IFC's base-64 alphabet for GlobalId (buildingSMART "compressed GUID"). */
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_$';

/**
 * A GlobalId derived from a key (e.g. `building:way/1`), so the same feature keeps the same id from
 * one export to the next and a linked model (Revit, Solibri) updates instead of duplicating.
 * 128 bits of SHA-1 as an RFC 4122 version-5-style GUID, then IFC's 22-character encoding.
 */
export function stableGlobalId(key: string): string {
  const b = createHash('sha1').update(key).digest().subarray(0, 16);
  b[6] = (b[6] & 0x0f) | 0x50;
  b[8] = (b[8] & 0x3f) | 0x80;
  // 128 bits, most significant first: 2 bits, then 21 groups of 6 (22 characters).
  let out = '',
    acc = 0,
    bits = 0,
    i = 0;
  for (let c = 0; c < 22; c++) {
    const g = c === 0 ? 2 : 6;
    while (bits < g) {
      acc = (acc << 8) | b[i++];
      bits += 8;
    }
    bits -= g;
    out += ALPHABET[(acc >> bits) & ((1 << g) - 1)];
    acc &= (1 << bits) - 1;
  }
  return out;
}
