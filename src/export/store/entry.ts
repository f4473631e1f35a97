import { createHash, randomBytes, type Hash } from 'node:crypto';
import { isStaged } from './staged.ts';
import type { ExportBytes } from './types.ts';

/**
 * What a stored export is named and tagged by, shared by every backend: the token, the file
 * name's rules and the ETag.
 */

/** 18 random bytes = 144 bits (≥ 128 required) and exactly 24 base64url characters, no padding. */
const TOKEN_BYTES = 18;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{24}$/;

export function newToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

/** Checked before any token reaches a path or a key, so a URL can never name anything else. */
export function isToken(token: string): boolean {
  return TOKEN_PATTERN.test(token);
}

/** A name the client sees in Content-Disposition and the URL: one path segment, printable. */
export function assertExportName(name: string): void {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what a file name must not hold
  if (name.length === 0 || name.length > 200 || /[/\\\u0000-\u001f\u007f]/.test(name) || name === '.' || name === '..') {
    throw new Error(`not a usable export file name: ${JSON.stringify(name)}`);
  }
}

/** Strong ETag from the content (the same for a file whole or in pieces), so a re-request of the same URL after a restart still validates. */
export function etagOf(bytes: ExportBytes): string {
  if (isStaged(bytes)) return bytes.etag;
  const hash = createHash('sha256');
  for (const piece of pieces(bytes)) hash.update(piece);
  return etagOfHash(hash);
}

/** The ETag of a hash fed with the whole file (a staged file is hashed as it is written). */
export function etagOfHash(hash: Hash): string {
  return `"${hash.digest('base64url').slice(0, 32)}"`;
}

/** The pieces of bytes in memory (a staged file has none: it is moved or uploaded from disk). */
export function pieces(bytes: ExportBytes): readonly Uint8Array[] {
  if (isStaged(bytes)) throw new Error('a staged export file has no pieces in memory');
  return bytes instanceof Uint8Array ? [bytes] : bytes;
}

export function byteLengthOf(bytes: ExportBytes): number {
  return isStaged(bytes) ? bytes.size : pieces(bytes).reduce((n, p) => n + p.byteLength, 0);
}
