/**
 * The header arithmetic of file downloads (RFC 9110 ranges and validators, RFC 6266
 * Content-Disposition), kept pure so every case can be tested without a server.
 */

export type RangeAnswer = { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

/**
 * One `bytes=` range against a file of `size` bytes. Anything this server does not serve as a
 * single part (other units, several ranges, bad syntax) falls back to the whole file, which
 * RFC 9110 §14.2 allows; only a well-formed range entirely past the end is unsatisfiable.
 */
export function parseRange(header: string | undefined, size: number): RangeAnswer {
  if (header === undefined) return { kind: 'full' };
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m || (m[1] === '' && m[2] === '')) return { kind: 'full' };
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  if (m[2] !== '' && Number(m[2]) < start) return { kind: 'full' }; // syntactically invalid: ignored
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end: m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1) };
}

/** If-None-Match uses the weak comparison: `W/"x"` matches `"x"`; `*` matches any file. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === bare;
  });
}

/**
 * If-Range: the range applies only while the client's copy is current (strong comparison of an
 * ETag; a date cannot be checked against a store without modification times, so it never matches).
 */
export function ifRangeHolds(header: string | undefined, etag: string): boolean {
  if (header === undefined) return true;
  return header.trim() === etag;
}

/**
 * `attachment` with an ASCII `filename` for old clients and the exact UTF-8 name in
 * `filename*` (RFC 6266 §4.3, RFC 8187).
 */
export function contentDisposition(name: string): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
