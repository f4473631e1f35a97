import type { OsmSource } from '../sources/osm/types.ts';
import { OsmStore } from '../sources/osm/store.ts';

const stores = new Map<string, OsmSource>();

/** Opens (once per thread) the OSM source at a path; tests may register a fixture source instead. */
export function osmSourceFor(path: string): OsmSource {
  let s = stores.get(path);
  if (!s) {
    s = OsmStore.open(path);
    stores.set(path, s);
  }
  return s;
}

export function registerOsmSource(path: string, source: OsmSource): void {
  stores.set(path, source);
}
