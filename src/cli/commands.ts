/**
 * The subcommands of `city-context`, each loaded only when it runs (so `serve` or `admin` do not
 * load the pipeline). To add one: a module in this folder whose default export is a {@link Command},
 * and one line below.
 */
import type { Command } from './command.ts';

export interface CommandEntry {
  summary: string;
  load: () => Promise<{ default: Command }>;
}

export const COMMANDS: Record<string, CommandEntry> = {
  generate: { summary: 'build a site model for a polygon: JSON geometry or an export file', load: () => import('./generate.ts') },
  serve: { summary: 'start the service (as npm start does)', load: () => import('./serve.ts') },
  import: { summary: 'build the OSM store from an .osm.pbf extract', load: () => import('./import-osm.ts') },
  admin: { summary: 'accounts and API keys', load: () => import('./admin.ts') },
  'import-buildings': {
    summary: 'import official LoD2 building models (CityJSON, CityGML) into the premium store',
    load: () => import('./import-buildings.ts'),
  },
  'bake-ground': { summary: 'fill the ground cache ahead of requests', load: () => import('./bake-ground.ts') },
  'import-postgis': { summary: 'load an .osm.pbf extract into the PostGIS store (osm2pgsql + post-step)', load: () => import('./import-postgis.ts') },
};
