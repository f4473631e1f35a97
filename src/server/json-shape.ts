/**
 * The shape of a JSON text — how deep arrays and objects nest, how many keys one object has —
 * found by one pass over its bytes before JSON.parse runs. 5 MB of `[[[[…` costs JSON.parse about
 * a second and most of a gigabyte; 400,000 unknown keys in one object (4.7 MB) cost parsing and
 * validation 1–3.8 s and 240 MB for the minimum price. This scan costs a few milliseconds.
 * Strings are skipped (brackets and colons inside them do not count). The text need not be valid
 * JSON: JSON.parse still judges that.
 */
export type JsonShapeProblem = 'too_deep' | 'too_many_keys' | null;

export function jsonShapeProblem(body: Uint8Array, maxDepth: number, maxKeys: number): JsonShapeProblem {
  // keys[d]: keys seen so far in the object open at depth d (-1 for an array)
  const keys = new Int32Array(maxDepth + 2);
  let depth = 0;
  let inString = false;
  for (let k = 0; k < body.length; k++) {
    const c = body[k];
    if (inString) {
      if (c === 0x5c)
        k++; // backslash: skip the escaped byte
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return 'too_deep';
      keys[depth] = c === 0x7b ? 0 : -1;
    } else if (c === 0x5d || c === 0x7d) {
      if (depth > 0) depth--;
    } else if (c === 0x3a && depth > 0 && keys[depth] >= 0) {
      // outside strings a colon only ever follows a key
      if (++keys[depth] > maxKeys) return 'too_many_keys';
    }
  }
  return null;
}
