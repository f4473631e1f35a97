/**
 * A growing byte buffer's next backing array: `buf` when `used + extra` bytes fit, else a copy of
 * its first `used` bytes in an array doubled until they do (the byte writers: JSON, 3dm archive).
 */
export function grownBytes(buf: Uint8Array<ArrayBuffer>, used: number, extra: number): Uint8Array<ArrayBuffer> {
  if (used + extra <= buf.length) return buf;
  let size = Math.max(buf.length * 2, 1);
  while (size < used + extra) size *= 2;
  const next = new Uint8Array(size);
  next.set(buf.subarray(0, used));
  return next;
}
