/**
 * Made-up export scenes for the writer tests (src/export/formats): a closed box building, a ground
 * piece, a terrain square, a centerline and two nodes, in metres around an origin in Monaco, in
 * anchor placement or shifted into absolute grid coordinates. Counts are known so a re-read file
 * can be checked triangle for triangle.
 */
import { modelMesh } from '../../../src/geometry/instances/models/index.ts';
import type { ExportMesh, ExportScene, ExportUnits } from '../../../src/export/scene.ts';
import { METRES_PER_UNIT } from '../../../src/export/scene.ts';

/** A closed axis-aligned box [x0, y0, z0] → [x1, y1, z1]: 8 vertices, 12 outward triangles. */
export function boxMesh(id: string, kind: string, x0: number, y0: number, z0: number, x1: number, y1: number, z1: number): ExportMesh {
  const positions = new Float64Array([x0, y0, z0, x1, y0, z0, x1, y1, z0, x0, y1, z0, x0, y0, z1, x1, y0, z1, x1, y1, z1, x0, y1, z1]);
  const indices = new Uint32Array([0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 1, 2, 6, 1, 6, 5, 2, 3, 7, 2, 7, 6, 3, 0, 4, 3, 4, 7]);
  return { id, kind, positions, indices, descriptor: { type: kind, id } };
}

/** A flat upward quad (2 triangles) at height z. */
export function quadMesh(id: string, kind: string, x0: number, y0: number, x1: number, y1: number, z: number): ExportMesh {
  return {
    id,
    kind,
    positions: new Float64Array([x0, y0, z, x1, y0, z, x1, y1, z, x0, y1, z]),
    indices: new Uint32Array([0, 1, 2, 0, 2, 3]),
    descriptor: { type: kind, id },
  };
}

/** Triangles per group of `sampleScene` (buildings, surface, topography). */
export const SAMPLE_TRIANGLES = { buildings: 12, surface: 2, topography: 2 } as const;

/** Triangles of the two nodes' models: the tree (untagged: broadleaf) and the bench. */
export const SAMPLE_NODE_TRIANGLES = {
  'node/3': modelMesh('tree-broadleaf').indices.length / 3,
  'node/4': modelMesh('bench').indices.length / 3,
} as const;

/** A building corner as placed in the scene (before units/placement): the known point tests look for. */
export const SAMPLE_CORNER: [number, number, number] = [10, 20, 0];

export interface SampleOptions {
  units?: ExportUnits;
  placement?: 'anchor' | 'absolute';
  /** Absolute placement: grid coordinates of the origin in metres (default a UTM 32N position in Monaco). */
  originGrid?: [number, number];
}

export function sampleScene(o: SampleOptions = {}): ExportScene {
  const units = o.units ?? 'm',
    k = 1 / METRES_PER_UNIT[units];
  const placement = o.placement ?? 'anchor';
  const grid = placement === 'absolute' ? (o.originGrid ?? [370_000, 4_843_000]) : [0, 0];
  const move = (m: ExportMesh): ExportMesh => {
    const p = m.positions.slice();
    for (let i = 0; i < p.length; i += 3) {
      p[i] = p[i] * k + grid[0] * k;
      p[i + 1] = p[i + 1] * k + grid[1] * k;
      p[i + 2] *= k;
    }
    return { ...m, positions: p };
  };
  const [cx, cy] = SAMPLE_CORNER;
  const building = boxMesh('way/1', 'building', cx, cy, 0, cx + 12, cy + 8, 15);
  building.descriptor = { type: 'building', id: 'way/1', buildingHeight: 15, roofType: 'flat' };
  building.colour = [0.8, 0.78, 0.74];
  return {
    name: 'city-context-sample',
    units,
    georef: {
      crs: placement === 'absolute' ? 32632 : 'local',
      proj4: placement === 'absolute' ? '+proj=utm +zone=32 +datum=WGS84 +units=m +no_defs' : undefined,
      origin: { lat: 43.7335, lon: 7.419 },
      originGrid: [grid[0] * k, grid[1] * k],
      gridConvergence: 0,
      placement,
    },
    groups: [
      { name: 'buildings', meshes: [move(building)], polylines: [], nodes: [] },
      { name: 'surface', meshes: [move(quadMesh('way/2', 'asphalt', -50, -5, 50, 5, 0))], polylines: [], nodes: [] },
      { name: 'topography', meshes: [move(quadMesh('terrain/0', 'terrain', -60, -60, 60, 60, -0.05))], polylines: [], nodes: [] },
      {
        name: 'surfaceLines',
        meshes: [],
        nodes: [],
        polylines: [
          {
            id: 'way/2',
            kind: 'centerline',
            points: move({ id: '', kind: '', indices: new Uint32Array(), descriptor: {}, positions: new Float64Array([-50, 0, 0, 0, 0, 0, 50, 0, 0]) })
              .positions,
            closed: false,
            descriptor: { type: 'asphalt', kind: 'centerline', id: 'way/2' },
          },
        ],
      },
      {
        name: 'instances',
        meshes: [],
        polylines: [],
        nodes: [
          {
            type: 'tree',
            position: [(-20 + grid[0]) * k, (15 + grid[1]) * k, 0],
            rotation: 0.5,
            scale: 1.2,
            descriptor: { type: 'tree', id: 'node/3', height: 12, crownDiameter: 6 },
          },
          { type: 'bench', position: [(5 + grid[0]) * k, (-8 + grid[1]) * k, 0], rotation: 1.2, scale: 1, descriptor: { type: 'bench', id: 'node/4' } },
        ],
      },
    ],
    attribution: ['© OpenStreetMap contributors, ODbL 1.0', 'SRTM: NASA / USGS, public domain'],
  };
}

/** The sample in anchor placement but on a projected CRS: a non-zero origin and a meridian convergence. */
export function anchoredUtm(units: ExportUnits): ExportScene {
  const s = sampleScene({ units, placement: 'anchor' }),
    k = 1 / METRES_PER_UNIT[units];
  s.georef = {
    ...s.georef,
    crs: 32632,
    proj4: '+proj=utm +zone=32 +datum=WGS84 +units=m +no_defs',
    originGrid: [370_000 * k, 4_843_000 * k],
    gridConvergence: -0.0231,
  };
  return s;
}
