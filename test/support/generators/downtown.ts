/**
 * A synthetic downtown for the benchmark: the dense city's street grid and buildings
 * (dense-city.ts, dense-city-buildings.ts) with what makes a real downtown's ground expensive, at
 * the densities of a real ~10 km² Midtown-like extract (12,400 highway ways: 6,108 footways of
 * which 2,640 sidewalks and 2,011 crossings, 103 traffic islands, 541 service, 455 residential,
 * 443 secondary, 365 primary, 455 steps, 253 pedestrian; ~1,500 mapped areas, ~1,150 barriers):
 *
 * - streets (downtown-streets.ts): roads split into ways a block or two long, separately mapped
 *   sidewalks beside them broken at every corner, four crossings at every junction, refuge
 *   islands in the boulevards;
 * - blocks (downtown-blocks.ts): alleys, back yards of lawns, gardens, playgrounds and parking
 *   behind fences and walls, driveways, through-block passages, plazas, parks, parking lots, steps
 *   to doors and to the subway;
 * - the highway kinds a real extract also has beyond those (downtown-extras.ts), to its total:
 *   protected cycle tracks, bus platforms and indoor corridors (paths come with the parks).
 *
 * Same square, centre and grid angle as the dense city, its own seed stream; the same options
 * always give the same entities and a byte-identical PBF.
 *
 * CLI: `node --import tsx scripts/bench/write-dense-city.ts out.osm.pbf --downtown [--seed N] [--side metres]`.
 */
import { writeFileSync } from 'node:fs';
import { createLocalFrame } from '../../../src/frame/local-frame.ts';
import { writeOsmPbf, type OsmPbfData } from './pbf-writer.ts';
import { CityBuilder } from './city-builder.ts';
import { downtownBlock } from './downtown-blocks.ts';
import { downtownExtras } from './downtown-extras.ts';
import { AVENUE_PITCH, DowntownStreets, STREET_PITCH } from './downtown-streets.ts';
import { mulberry32 } from './prng.ts';
import { DENSE_CITY_DEFAULTS, type DenseCityOptions } from './dense-city.ts';

export const DOWNTOWN_DEFAULTS: DenseCityOptions = { ...DENSE_CITY_DEFAULTS };

/** The counts of the real downtown extract the generator is shaped after (per ~10 km²). */
export const DOWNTOWN_TARGETS = {
  highways: 12400,
  footways: 6108,
  sidewalks: 2640,
  crossings: 2011,
  trafficIslands: 103,
  service: 541,
  residential: 455,
  secondary: 443,
  primary: 365,
  steps: 455,
  pedestrian: 253,
  areas: 1500,
  barriers: 1150,
} as const;

/** The downtown as OSM entities, ids in creation order from 1. Pure: depends on the options alone. */
export function downtownExtract(options: DenseCityOptions): OsmPbfData {
  const { seed, centre, sideMetres } = options;
  const c = new CityBuilder(createLocalFrame(centre[0], centre[1]), sideMetres, mulberry32(seed ^ 0x5eed));
  const reach = (sideMetres / 2) * Math.SQRT2 + AVENUE_PITCH;
  const offU = c.range(0, AVENUE_PITCH),
    offV = c.range(0, STREET_PITCH);
  const i0 = Math.floor((-reach - offU) / AVENUE_PITCH),
    i1 = Math.ceil((reach - offU) / AVENUE_PITCH);
  const j0 = Math.floor((-reach - offV) / STREET_PITCH),
    j1 = Math.ceil((reach - offV) / STREET_PITCH);
  const streets = new DowntownStreets(c, offU, offV, i0, i1, j0, j1);
  const names = { n: 0 };
  for (let i = i0; i < i1; i++) for (let j = j0; j < j1; j++) downtownBlock(streets, i, j, names);
  downtownExtras(streets);
  streets.finish();
  return { nodes: c.nodes, ways: c.ways, relations: c.relations };
}

const AREA_KEYS = ['leisure', 'landuse', 'amenity', 'natural', 'area:highway'];

/** Counts of what a downtown holds, by the kinds the targets name. */
export function downtownSummary(data: OsmPbfData) {
  const ways = data.ways;
  const highway = (k: string) => ways.filter((w) => w.tags.highway === k).length;
  const closed = (w: (typeof ways)[number]) => w.refs.length >= 4 && w.refs[0] === w.refs[w.refs.length - 1];
  return {
    nodes: data.nodes.length,
    ways: ways.length,
    highways: ways.filter((w) => w.tags.highway).length,
    footways: highway('footway'),
    sidewalks: ways.filter((w) => w.tags.footway === 'sidewalk').length,
    crossings: ways.filter((w) => w.tags.footway === 'crossing').length,
    trafficIslands: ways.filter((w) => w.tags['area:highway'] === 'traffic_island').length,
    service: highway('service'),
    residential: highway('residential'),
    secondary: highway('secondary'),
    primary: highway('primary'),
    steps: highway('steps'),
    pedestrian: highway('pedestrian'),
    areas: ways.filter((w) => closed(w) && !w.tags.building && !w.tags['building:part'] && (AREA_KEYS.some((k) => w.tags[k]) || w.tags.area === 'yes')).length,
    barriers: ways.filter((w) => w.tags.barrier).length + data.nodes.filter((n) => n.tags?.barrier).length,
    buildings: ways.filter((w) => w.tags.building).length,
    parts: ways.filter((w) => w.tags['building:part']).length,
  };
}

const PROGRAM = 'city-context downtown';

/** The PBF bytes of the downtown (blocks of 8,000 entities, like real extracts). */
export function downtownPbf(options: DenseCityOptions = DOWNTOWN_DEFAULTS): Buffer {
  return writeOsmPbf(downtownExtract(options), { blockSize: 8000, writingProgram: PROGRAM });
}

/** Writes the downtown to `path`; returns the counts of what it holds. */
export function writeDowntown(path: string, options: DenseCityOptions = DOWNTOWN_DEFAULTS): ReturnType<typeof downtownSummary> & { bytes: number } {
  const data = downtownExtract(options);
  const bytes = writeOsmPbf(data, { blockSize: 8000, writingProgram: PROGRAM });
  writeFileSync(path, bytes);
  return { ...downtownSummary(data), bytes: bytes.length };
}
