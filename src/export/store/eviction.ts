/** What the size caps need to know of a stored file. */
export interface SizedEntry {
  token: string;
  size: number;
  /** Epoch ms the file was stored; the oldest go first. */
  createdAt: number;
  /** The account whose export it is ('' when unknown: files stored without one share it). */
  owner?: string;
  /** Epoch ms its link dies; absent = never known to have expired. */
  expiresAt?: number;
}

export interface Caps {
  /** What the whole store may hold, bytes. */
  maxBytes: number;
  /** What one account's files may hold, bytes (at most maxBytes). */
  accountMaxBytes: number;
}

/** Where a new file goes: what to remove first, and whether it then fits. */
export interface RoomPlan {
  /** Expired files of anyone, then the owner's own oldest. */
  evict: string[];
  fits: boolean;
  /** When it does not fit: the epoch ms the first of the other accounts' files expires (room may come then). */
  nextExpiry: number | null;
}

/**
 * Makes room for `incoming` bytes of `owner`'s (docs/exports.md "Downloads and the export store"):
 * expired files go first, then the owner's own oldest files, until the owner's files fit its
 * quota and all files the store's cap. Another account's unexpired file is never removed — its
 * link was promised until it expires — so when the others' files leave no room, the file does
 * not fit and the caller refuses it. Oldest-first because the newest links are the ones clients
 * are most likely still to fetch.
 */
export function planRoom(entries: readonly SizedEntry[], caps: Caps, incoming: number, owner = '', now = Date.now()): RoomPlan {
  const evict: string[] = [];
  const mine: SizedEntry[] = [];
  let total = incoming,
    own = incoming,
    nextExpiry: number | null = null;
  for (const e of entries) {
    if (e.expiresAt !== undefined && e.expiresAt <= now) {
      evict.push(e.token);
      continue;
    }
    total += e.size;
    if ((e.owner ?? '') === owner) {
      own += e.size;
      mine.push(e);
    } else if (e.expiresAt !== undefined) nextExpiry = Math.min(nextExpiry ?? Infinity, e.expiresAt);
  }
  mine.sort((a, b) => a.createdAt - b.createdAt || a.token.localeCompare(b.token));
  for (const e of mine) {
    if (own <= caps.accountMaxBytes && total <= caps.maxBytes) break;
    evict.push(e.token);
    own -= e.size;
    total -= e.size;
  }
  const fits = own <= caps.accountMaxBytes && total <= caps.maxBytes;
  return { evict, fits, nextExpiry: fits ? null : nextExpiry };
}

/** Bytes the others' unexpired files leave for `owner` under the caps (what a new file of its may use at most). */
export function roomFor(entries: readonly SizedEntry[], caps: Caps, owner = '', now = Date.now()): number {
  let others = 0;
  for (const e of entries) if ((e.owner ?? '') !== owner && !(e.expiresAt !== undefined && e.expiresAt <= now)) others += e.size;
  return Math.min(caps.accountMaxBytes, caps.maxBytes - others);
}
