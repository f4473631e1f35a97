/**
 * The scenes of `npm run gallery:scenes`: what each asks the service for and where its cameras
 * stand. View coordinates are the export's local metres (x east, y north, the request origin at
 * 0, 0; heights are found on the model by render-scene.py).
 */
import { join } from 'node:path';
import { REPO_ROOT } from '../../src/config.ts';
import { createLocalFrame } from '../../src/frame/local-frame.ts';
import { DENSE_CITY_DEFAULTS, denseCityExtract, writeDenseCity } from '../../test/support/generators/dense-city.ts';
import { type SceneRequest, squareAround } from './scene-export.ts';
import { fromGrid, gridLines, writeValleyTown } from './valley-town.ts';

export type View =
  | { name: string; kind: 'oblique'; target: [number, number]; azimuth: number; elevation: number; distance: number; lens?: number }
  | { name: string; kind: 'street'; from: [number, number]; to: [number, number]; eye?: number; lens?: number }
  | { name: string; kind: 'top'; centre: [number, number]; size: number };

export interface Scene {
  name: string;
  request: SceneRequest;
  views: View[];
}

/** Every group a designer asks for, the terrain as meshes, everything stood on it. */
const WITH_TERRAIN = {
  geometry: ['buildings', 'surface', 'barriers', 'instances', 'topography'],
  topographyReturnType: 'meshes',
  projectToTopography: true,
};

/** The bearing (degrees clockwise from north) the grid's v axis points to: the avenues and the valley. */
const AVENUE_BEARING = 360 - 29;

export const SCENES: Record<string, (dir: string) => Scene> = {
  /**
   * The bundled sample as `npm start` serves it (monaco.osm.pbf and the SRTM tile): La Condamine,
   * the port and the Rock (Monaco-Ville, the palace square at about (35, -160)).
   */
  monaco: () => {
    const centre: [number, number] = [43.7325, 7.4205];
    return {
      name: 'monaco',
      request: {
        polygon: squareAround(centre, 700),
        origin: centre,
        settings: WITH_TERRAIN,
        env: { CITY_OSM_EXTRACT: join(REPO_ROOT, 'data/monaco/monaco.osm.pbf') },
      },
      views: [
        { name: 'bird', kind: 'oblique', target: [0, -20], azimuth: 135, elevation: 38, distance: 950 },
        { name: 'rock', kind: 'oblique', target: [0, -160], azimuth: 20, elevation: 32, distance: 340 },
        // Boulevard Albert 1er by the port (10 m), looking up to the palace square on the Rock (55 m)
        { name: 'street', kind: 'street', from: [122, 58], to: [20, -165] },
        { name: 'top', kind: 'top', centre: [0, 0], size: 1000 },
      ],
    };
  },
  /**
   * The dense city (a Manhattan-like grid, no mapped land use) as the benchmark writes it, without
   * terrain, as Midtown Manhattan is measured: the ground between the roads and the façades shows
   * what the filler makes of a city.
   */
  'dense-city': (dir) => {
    const pbf = join(dir, 'dense-city.osm.pbf');
    writeDenseCity(pbf);
    const centre = DENSE_CITY_DEFAULTS.centre;
    const { avenues, streets } = gridLines(denseCityExtract(DENSE_CITY_DEFAULTS), createLocalFrame(...centre));
    const avenue = nearest(avenues, 0),
      street = nearest(streets, 0);
    return {
      name: 'dense-city',
      request: {
        polygon: squareAround(centre, 700),
        origin: centre,
        settings: { geometry: ['buildings', 'surface', 'barriers', 'instances'] },
        env: { CITY_OSM_EXTRACT: pbf },
      },
      views: [
        { name: 'bird', kind: 'oblique', target: [0, 0], azimuth: 200, elevation: 35, distance: 900 },
        // from high up with a long lens, so the camera clears the towers
        { name: 'block', kind: 'oblique', target: fromGrid(avenue + 60, street), azimuth: 160, elevation: 55, distance: 700, lens: 85 },
        { name: 'street', kind: 'street', from: fromGrid(avenue, street + 12), to: fromGrid(avenue, street + 300) },
        { name: 'top', kind: 'top', centre: [0, 0], size: 1000 },
      ],
    };
  },
  /**
   * Andorra-like slopes: the generated town over a synthetic steep valley (valley-town.ts), its
   * OSM extract imported by the service at start and its GeoTIFF as the only elevation source.
   */
  'valley-town': (dir) => {
    const town = writeValleyTown(dir);
    // The request is centred on the river; its frame is the town's moved there (same axes to 1e-3°).
    const local = (u: number, v: number) => fromGrid(u - town.riverU, v);
    const [lon, lat] = town.frame.toLonLat(...fromGrid(town.riverU, 0));
    const centre: [number, number] = [lat, lon];
    const bridge = nearest(town.bridgeStreets, 0);
    return {
      name: 'valley-town',
      request: {
        polygon: squareAround(centre, 800),
        origin: centre,
        settings: WITH_TERRAIN,
        env: { CITY_OSM_EXTRACT: town.pbf, CITY_DEM_SOURCES: JSON.stringify([{ kind: 'geotiff', path: town.dem, crs: town.demCrs }]) },
      },
      views: [
        { name: 'bird', kind: 'oblique', target: [0, 0], azimuth: AVENUE_BEARING - 180, elevation: 30, distance: 1000 },
        { name: 'bridge', kind: 'oblique', target: local(town.riverU, bridge), azimuth: AVENUE_BEARING - 15, elevation: 12, distance: 110 },
        // up the steeper side, along the bridged street
        { name: 'street', kind: 'street', from: local(town.riverU + 30, bridge), to: local(town.riverU + 260, bridge) },
        { name: 'top', kind: 'top', centre: [0, 0], size: 1100 },
      ],
    };
  },
};

function nearest(values: readonly number[], to: number): number {
  return values.reduce((best, v) => (Math.abs(v - to) < Math.abs(best - to) ? v : best), values[0]);
}
