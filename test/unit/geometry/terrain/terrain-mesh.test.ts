import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { createLocalFrame } from '../../../../src/frame/local-frame.ts';
import { inspectMesh } from '../../../../src/geometry/mesh-checks.ts';
import { elevationGridForTile, type ElevationGrid } from '../../../../src/geometry/terrain/elevation-grid.ts';
import { chooseGridSpacing } from '../../../../src/geometry/terrain/grid-spacing.ts';
import { createGroundSampler } from '../../../../src/geometry/terrain/ground-sampler.ts';
import { buildTerrainMesh } from '../../../../src/geometry/terrain/terrain-mesh.ts';
import type { BBox, IndexedMesh } from '../../../../src/geometry/types.ts';
import { elevationMapEntries } from '../../../../src/plan/merge-elevation.ts';
import { createElevationSourceFromConfig } from '../../../../src/sources/dem/config.ts';
import { readTileElevation } from '../../../../src/sources/dem/read-tile-elevation.ts';

const T = 500;
const tileBox = (i: number, j: number): BBox => ({ minX: i * T, minY: j * T, maxX: (i + 1) * T, maxY: (j + 1) * T });

/** Concatenates meshes, welding vertices at identical coordinates (so cracks show up as open edges). */
function weld(meshes: IndexedMesh[]): IndexedMesh {
  const positions: number[] = [],
    indices: number[] = [];
  const lookup = new Map<string, number>();
  for (const m of meshes) {
    const map: number[] = [];
    for (let v = 0; v < m.positions.length / 3; v++) {
      const key = `${m.positions[3 * v]},${m.positions[3 * v + 1]},${m.positions[3 * v + 2]}`;
      let k = lookup.get(key);
      if (k === undefined) {
        k = positions.length / 3;
        positions.push(m.positions[3 * v], m.positions[3 * v + 1], m.positions[3 * v + 2]);
        lookup.set(key, k);
      }
      map.push(k);
    }
    for (const i of m.indices) indices.push(map[i]);
  }
  return { positions: Float64Array.from(positions), indices: Uint32Array.from(indices) };
}

/** Vertices of a mesh on the line x = edge (or y = edge), sorted, as "x,y,z" strings. */
function edgeVertices(mesh: IndexedMesh, axis: 0 | 1, edge: number): string[] {
  const out: string[] = [];
  for (let v = 0; v < mesh.positions.length / 3; v++) {
    if (mesh.positions[3 * v + axis] === edge) out.push(`${mesh.positions[3 * v]},${mesh.positions[3 * v + 1]},${mesh.positions[3 * v + 2]}`);
  }
  return out.sort();
}

/** Height of the mesh triangle over (x, y), by barycentric interpolation; null outside the mesh. */
function heightOnMesh(mesh: IndexedMesh, x: number, y: number): number | null {
  const p = mesh.positions;
  for (let t = 0; t < mesh.indices.length; t += 3) {
    const [a, b, c] = [mesh.indices[t], mesh.indices[t + 1], mesh.indices[t + 2]];
    const d = (p[3 * b + 1] - p[3 * c + 1]) * (p[3 * a] - p[3 * c]) + (p[3 * c] - p[3 * b]) * (p[3 * a + 1] - p[3 * c + 1]);
    const l1 = ((p[3 * b + 1] - p[3 * c + 1]) * (x - p[3 * c]) + (p[3 * c] - p[3 * b]) * (y - p[3 * c + 1])) / d;
    const l2 = ((p[3 * c + 1] - p[3 * a + 1]) * (x - p[3 * c]) + (p[3 * a] - p[3 * c]) * (y - p[3 * c + 1])) / d;
    const l3 = 1 - l1 - l2;
    if (l1 >= -1e-9 && l2 >= -1e-9 && l3 >= -1e-9) return l1 * p[3 * a + 2] + l2 * p[3 * b + 2] + l3 * p[3 * c + 2];
  }
  return null;
}

function assertUpwardTriangles(mesh: IndexedMesh): void {
  const p = mesh.positions,
    idx = mesh.indices;
  for (let t = 0; t < idx.length; t += 3) {
    const [a, b, c] = [idx[t], idx[t + 1], idx[t + 2]];
    const cross = (p[3 * b] - p[3 * a]) * (p[3 * c + 1] - p[3 * a + 1]) - (p[3 * b + 1] - p[3 * a + 1]) * (p[3 * c] - p[3 * a]);
    assert.ok(cross > 0, 'counter-clockwise seen from above');
  }
}

/** A synthetic rough terrain: a 2×2 block of tiles with segments per side, sampled from one function. */
function syntheticTiles(segments: number, seed: number): ElevationGrid[] {
  const frame = createLocalFrame(45, 6);
  const ground = (lon: number, lat: number) => 300 + 40 * Math.sin(lon * 2000 + seed) * Math.cos(lat * 1500 - seed) + 5 * Math.sin(lon * 9000);
  return [
    [0, 0],
    [1, 0],
    [0, 1],
    [1, 1],
  ].map(([i, j]) => elevationGridForTile(ground, frame, tileBox(i, j), segments));
}

describe('terrain meshes', () => {
  test('tile meshes meet vertex for vertex: the welded union is open only on its outer border', () => {
    fc.assert(
      fc.property(fc.constantFrom(4, 16, 64), fc.integer({ min: 0, max: 1000 }), (segments, seed) => {
        const grids = syntheticTiles(segments, seed);
        const meshes = grids.map((g) => buildTerrainMesh(g));
        for (const m of meshes) assertUpwardTriangles(m);
        assert.deepEqual(edgeVertices(meshes[0], 0, T), edgeVertices(meshes[1], 0, T));
        assert.deepEqual(edgeVertices(meshes[0], 1, T), edgeVertices(meshes[2], 1, T));
        const report = inspectMesh(weld(meshes));
        assert.equal(report.repeatedEdges, 0);
        assert.equal(report.degenerate, 0);
        assert.equal(report.openEdges, 4 * 2 * segments, 'only the outer border is open');
      }),
      { numRuns: 25 },
    );
  });

  test('every sample is a vertex, and the mesh is the surface the ground sampler interpolates (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1000 }),
        fc.array(fc.tuple(fc.double({ min: 0, max: T, noNaN: true }), fc.double({ min: 0, max: T, noNaN: true })), { minLength: 1, maxLength: 50 }),
        (seed, points) => {
          const [grid] = syntheticTiles(16, seed);
          const mesh = buildTerrainMesh(grid);
          assert.equal(mesh.positions.length / 3, 17 * 17);
          assert.equal(mesh.indices.length / 3, 2 * 16 * 16);
          const ground = createGroundSampler(grid);
          for (const [x, y] of points) {
            const z = heightOnMesh(mesh, x, y);
            assert.ok(z !== null && Math.abs(z - ground(x, y)) < 1e-6, `(${x}, ${y}): mesh ${z}, sampler ${ground(x, y)}`);
          }
        },
      ),
      { numRuns: 50 },
    );
  });

  test('any grid size meshes the same way', () => {
    const frame = createLocalFrame(45, 6);
    const grid = elevationGridForTile(() => 10, frame, tileBox(0, 0), 6);
    const mesh = buildTerrainMesh(grid);
    assert.equal(mesh.positions.length / 3, 49);
    assert.equal(mesh.indices.length / 3, 72);
    assertUpwardTriangles(mesh);
  });
});

describe('elevation maps versus meshes on the Monaco sample (800 m square at 43.7335 N 7.4190 E)', () => {
  test('the elevation map is much smaller than the meshes as JSON', async (t) => {
    const frame = createLocalFrame(43.7335, 7.419);
    const dem = await createElevationSourceFromConfig();
    const { segments } = chooseGridSpacing({ tileSize: T, tilesPerSide: 2, resolutionMetres: dem.resolutionMetresAt(43.7335) });
    const grids = [];
    for (const [i, j] of [
      [0, 0],
      [1, 0],
      [0, 1],
      [1, 1],
    ])
      grids.push((await readTileElevation(dem, frame, tileBox(i, j), { segments })).grid);
    await dem.close();
    const mm = (v: number) => Math.round(v * 1000) / 1000;
    const mapBytes = JSON.stringify(elevationMapEntries(grids, true)).length;
    const meshJson = (meshes: IndexedMesh[], indexed: boolean) =>
      JSON.stringify(
        meshes.map((m) =>
          indexed
            ? { vertices: Array.from(m.positions, mm), indices: Array.from(m.indices) }
            : { vertices: Array.from(m.indices).flatMap((i) => [mm(m.positions[3 * i]), mm(m.positions[3 * i + 1]), mm(m.positions[3 * i + 2])]) },
        ),
      ).length;
    const meshes = grids.map((g) => buildTerrainMesh(g));
    const sizes = {
      map: mapBytes,
      triangleList: meshJson(meshes, false),
      indexed: meshJson(meshes, true),
    };
    for (const [name, bytes] of Object.entries(sizes)) {
      if (name !== 'map') t.diagnostic(`${name}: ${bytes} bytes; elevation map ${(100 * (1 - mapBytes / bytes)).toFixed(1)}% smaller`);
    }
    t.diagnostic(`elevation map: ${mapBytes} bytes (${(2 * segments + 1) ** 2} heights)`);
    assert.ok(mapBytes < 0.2 * sizes.triangleList, 'at least 80% smaller than the mesh as a triangle list');
    assert.ok(mapBytes < sizes.indexed, 'smaller than the indexed mesh');
  });
});
