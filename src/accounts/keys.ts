/**
 * API key format and hashing. A key looks like `cc_dev_<32 base64url chars>` (development) or
 * `cc_live_<32 chars>` (production): 24 random bytes = 192 bits. Only the SHA-256 of the key is
 * stored — a slow password hash buys nothing for a key this random — plus a short display prefix,
 * which is also how a key is found before its hash is compared in constant time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { KeyKind } from './types.ts';

const RANDOM_BYTES = 24;
const RANDOM_CHARS = 32; // base64url of 24 bytes, no padding
/** Random characters kept in the display prefix: 48 of the 192 bits, enough to tell keys apart. */
const PREFIX_RANDOM_CHARS = 8;

const TAG_BY_KIND: Record<KeyKind, string> = { development: 'cc_dev_', production: 'cc_live_' };
const KEY_PATTERN = /^cc_(dev|live)_([A-Za-z0-9_-]{32})$/;

export interface NewKey {
  /** The plain key: give it to the user once, never store it. */
  key: string;
  prefix: string;
  hash: Buffer;
}

export function generateKey(kind: KeyKind): NewKey {
  const key = TAG_BY_KIND[kind] + randomBytes(RANDOM_BYTES).toString('base64url');
  return { key, prefix: displayPrefix(key), hash: hashKey(key) };
}

export function hashKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

export function hashesEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

function displayPrefix(key: string): string {
  const tagEnd = key.indexOf('_', 3) + 1;
  return key.slice(0, tagEnd + PREFIX_RANDOM_CHARS);
}

export interface ParsedKey {
  kind: KeyKind;
  prefix: string;
}

/** Checks the shape of a presented key; null when it cannot be one of ours. */
export function parseKey(token: string): ParsedKey | null {
  const match = KEY_PATTERN.exec(token);
  if (!match || match[2]!.length !== RANDOM_CHARS) return null;
  return { kind: match[1] === 'dev' ? 'development' : 'production', prefix: displayPrefix(token) };
}

/**
 * The token in an `Authorization` header value (`Bearer <token>`, scheme case-insensitive).
 * A bare token is accepted as well, so callers may pass either the header or the key.
 * Returns undefined for a missing or empty value.
 */
export function bearerToken(value: string | null | undefined): string | undefined {
  if (value == null) return undefined;
  const trimmed = value.trim();
  const match = /^bearer\s+(.*)$/i.exec(trimmed);
  const token = (match ? match[1]! : trimmed).trim();
  return token === '' || /^bearer$/i.test(token) ? undefined : token;
}
