/**
 * How deep arrays and objects nest in a JSON text, found by one pass over its bytes before
 * JSON.parse runs: 5 MB of `[[[[…` costs JSON.parse about a second and most of a gigabyte, this
 * scan a few milliseconds. Strings are skipped (brackets inside them do not count). The text need
 * not be valid JSON: JSON.parse still judges that.
 */
export function exceedsJsonDepth(body: Uint8Array, maxDepth: number): boolean {
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
      if (++depth > maxDepth) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}
