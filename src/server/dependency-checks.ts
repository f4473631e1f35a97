/**
 * What `GET /readyz` checks besides the warm-up: that the stores a request needs answer. Each store
 * brings its own ping (a query that touches the database, a HEAD on the bucket), so another
 * implementation — PostgreSQL accounts, a PostGIS OSM store — plugs in its own check without
 * the HTTP layer knowing.
 */
import type { AccountStore } from '../accounts/index.ts';
import type { ExportStore } from '../export/store/types.ts';
import { isPostgresStore } from '../sources/osm/postgis/postgis-store.ts';
import { storeIsCurrent } from '../sources/osm/store.ts';
import { osmStoreVersion } from '../tile/osm-sources.ts';

export interface DependencyCheck {
  /** Named in the 503's details, e.g. `accounts`, `osm-store`, `export-store`. */
  name: string;
  /** Resolves when the dependency answers; rejects (or does not settle in time) when it does not. */
  ping(): Promise<void>;
}

/** How long /readyz waits for one ping before it counts as down, ms. */
export const PING_TIMEOUT_MS = 2_000;

/** The checks that failed, with why (empty: all answered). All run at once, each bounded by `timeoutMs`. */
export async function failingChecks(checks: readonly DependencyCheck[], timeoutMs = PING_TIMEOUT_MS): Promise<{ name: string; message: string }[]> {
  const results = await Promise.all(
    checks.map(async (check) => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      });
      try {
        await Promise.race([check.ping(), late]);
        return null;
      } catch (err) {
        return { name: check.name, message: (err as Error)?.message ?? String(err) };
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return results.filter((r) => r !== null);
}

/** A syntactically valid export token that names no file: a HEAD for it reaches the store and finds nothing. */
const PROBE_TOKEN = 'readiness-probe-00000000';

/** The embedded set-up's checks: the SQLite accounts, the SQLite OSM store at `osmStorePath`, the export store. */
export function embeddedChecks(deps: { accounts: AccountStore; osmStorePath: string; exports: ExportStore }): DependencyCheck[] {
  return [
    {
      name: 'accounts',
      ping: async () => {
        // SQLite: the file is open; PostgreSQL: a round trip
        if (!(await deps.accounts.reachable())) throw new Error(`the ${deps.accounts.kind} accounts store cannot be reached`);
      },
    },
    {
      name: 'osm-store',
      ping: async () => {
        // PostGIS: a round trip reading the store's version; SQLite: the file opens at the schema it reads
        if (isPostgresStore(deps.osmStorePath)) await osmStoreVersion(deps.osmStorePath);
        else if (!storeIsCurrent(deps.osmStorePath)) throw new Error(`the OSM store ${deps.osmStorePath} cannot be read`);
      },
    },
    { name: 'export-store', ping: async () => void (await deps.exports.head(PROBE_TOKEN, 'probe')) },
  ];
}
