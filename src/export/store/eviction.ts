/** What the size cap needs to know of a stored file. */
export interface SizedEntry {
  token: string;
  size: number;
  /** Epoch ms the file was stored; the oldest go first. */
  createdAt: number;
}

/**
 * The tokens to remove, oldest first, so that the entries kept plus `incoming` bytes fit in
 * `maxBytes`. Oldest-first because the newest links are the ones clients are most likely still to
 * fetch; a file larger than the whole cap is refused by the caller, not by evicting everything.
 */
export function pickEvictions(entries: SizedEntry[], maxBytes: number, incoming = 0): string[] {
  let total = incoming;
  for (const e of entries) total += e.size;
  const out: string[] = [];
  const oldestFirst = [...entries].sort((a, b) => a.createdAt - b.createdAt || a.token.localeCompare(b.token));
  for (const e of oldestFirst) {
    if (total <= maxBytes) break;
    out.push(e.token);
    total -= e.size;
  }
  return out;
}
