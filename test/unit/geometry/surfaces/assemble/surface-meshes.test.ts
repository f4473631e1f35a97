/**
 * surfaceMeshes, surfaceOutlines and drapeLine over the pieces resolveOverlaps makes of the random
 * scenes of test/support/scenes/assemble-scenes.ts, on a gentle synthetic terrain: upward, non-degenerate,
 * consistently wound triangles covering each piece; draped pieces on the ground, undraped ones with
 * their own vertices on it; bridge decks closed slabs on their profile; outlines on the meshes'
 * vertices. SURFACES_RUNS=k runs k times as many cases.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { resolveOverlaps } from '../../../../../src/geometry/surfaces/assemble/resolve-overlaps.ts';
import { surfaceMeshes } from '../../../../../src/geometry/surfaces/assemble/surface-meshes.ts';
import { drapeLine, surfaceOutlines } from '../../../../../src/geometry/surfaces/assemble/surface-outlines.ts';
import { deckHeight, drapeLattice, splitRing } from '../../../../../src/geometry/surfaces/assemble/drape.ts';
import { DECK_STEP, DECK_THICKNESS } from '../../../../../src/geometry/surfaces/deck-height.ts';
import { createGroundSampler, type GroundSampler } from '../../../../../src/geometry/terrain/ground-sampler.ts';
import type { ElevationGrid } from '../../../../../src/geometry/terrain/elevation-grid.ts';
import { inspectMesh } from '../../../../../src/geometry/mesh-checks.ts';
import type { Footprint } from '../../../../../src/geometry/types.ts';
import { signedArea2 } from '../../../../../src/geometry/ring.ts';
import { area, sceneArb } from '../../../../support/scenes/assemble-scenes.ts';
import { rect } from '../../../../support/scenes/shapes.ts';
import { holds } from '../../../../support/arbitraries/holds.ts';

/** A piece's own area (outer minus holes). */
const shoelace = (f: Footprint) => (Math.abs(signedArea2(f.outer)) - f.holes.reduce((a, h) => a + Math.abs(signedArea2(h)), 0)) / 2;

// ---------- terrain ----------

/** A gentle synthetic terrain over [-60, 160]² with `spacing` between samples (metres). */
function syntheticGround(spacing = 10, f = (x: number, y: number) => 40 + 6 * Math.sin(x / 35) + 4 * Math.cos(y / 28) + 0.03 * x): GroundSampler {
  const minX = -60,
    maxY = 160,
    cells = Math.round(220 / spacing);
  const columns = cells + 1,
    rows = cells + 1;
  const heights = new Float32Array(columns * rows);
  for (let r = 0; r < rows; r++) for (let c = 0; c < columns; c++) heights[r * columns + c] = f(minX + c * spacing, maxY - r * spacing);
  const grid: ElevationGrid = { bbox: { minX, minY: maxY - cells * spacing, maxX: minX + cells * spacing, maxY }, columns, rows, heights };
  return createGroundSampler(grid);
}

interface MeshStats {
  maxVertexError: number;
  maxCentroidError: number;
  minArea: number;
  downward: number;
  area: number;
  maxEdge: number;
}

function meshStats(mesh: { positions: Float64Array; indices: Uint32Array }, ground?: GroundSampler): MeshStats {
  const p = mesh.positions,
    idx = mesh.indices;
  const s: MeshStats = { maxVertexError: 0, maxCentroidError: 0, minArea: Infinity, downward: 0, area: 0, maxEdge: 0 };
  if (ground) for (let i = 0; i < p.length; i += 3) s.maxVertexError = Math.max(s.maxVertexError, Math.abs(p[i + 2] - ground(p[i], p[i + 1])));
  for (let t = 0; t < idx.length; t += 3) {
    const a = 3 * idx[t],
      b = 3 * idx[t + 1],
      c = 3 * idx[t + 2];
    const a2 = (p[b] - p[a]) * (p[c + 1] - p[a + 1]) - (p[b + 1] - p[a + 1]) * (p[c] - p[a]);
    if (a2 <= 0) s.downward++;
    s.area += a2 / 2;
    s.minArea = Math.min(s.minArea, a2 / 2);
    for (const [u, v] of [
      [a, b],
      [b, c],
      [c, a],
    ])
      s.maxEdge = Math.max(s.maxEdge, Math.hypot(p[v] - p[u], p[v + 1] - p[u + 1]));
    if (ground) {
      const cx = (p[a] + p[b] + p[c]) / 3,
        cy = (p[a + 1] + p[b + 1] + p[c + 1]) / 3,
        cz = (p[a + 2] + p[b + 2] + p[c + 2]) / 3;
      s.maxCentroidError = Math.max(s.maxCentroidError, Math.abs(cz - ground(cx, cy)));
    }
  }
  return s;
}

// ---------- surfaceMeshes ----------

test('surfaceMeshes: upward, non-degenerate, consistently wound triangles covering each piece; z = 0 without terrain (fast-check)', () => {
  holds(
    fc.property(sceneArb(false), ({ areas, buildings, clip }) => {
      const pieces = resolveOverlaps(areas, { cutOut: buildings, clip });
      const meshes = surfaceMeshes(pieces, { drape: true });
      assert.equal(meshes.length, pieces.length);
      meshes.forEach((m, k) => {
        const s = meshStats(m.mesh);
        assert.equal(s.downward, 0, 'a triangle faces down');
        assert.ok(s.minArea >= 1e-6, `degenerate triangle ${s.minArea}`);
        const want = pieces[k].footprints.reduce((a, f) => a + shoelace(f), 0);
        assert.ok(Math.abs(s.area - want) <= 1e-6 * want + 1e-4, `triangulated ${s.area} vs piece ${want}`);
        assert.ok(
          m.mesh.positions.every((v, i) => i % 3 !== 2 || v === 0),
          'check at line 304',
        );
        const report = inspectMesh(m.mesh, 1e-6);
        assert.equal(report.repeatedEdges, 0, 'inconsistent winding');
        assert.equal(report.degenerate, 0);
        assert.equal(m.descriptor.type, pieces[k].descriptor.type);
      });
    }),
    120,
  );
});

test('surfaceMeshes: draped pieces lie on the terrain surface, vertices and triangle interiors (centroids within 2 cm) (fast-check)', () => {
  const ground = syntheticGround(10);
  const lattice = drapeLattice({ ground, drape: true });
  let worstCentroid = 0;
  holds(
    fc.property(sceneArb(false), ({ areas, buildings, clip }) => {
      const pieces = resolveOverlaps(areas, { cutOut: buildings, clip });
      const meshes = surfaceMeshes(pieces, { ground, drape: true });
      meshes.forEach((m, k) => {
        const s = meshStats(m.mesh, ground);
        assert.ok(s.maxVertexError < 0.01, `vertex ${s.maxVertexError} m off the ground`);
        assert.ok(s.maxCentroidError < 0.02, `centroid ${s.maxCentroidError} m off the ground`);
        worstCentroid = Math.max(worstCentroid, s.maxCentroidError);
        assert.equal(s.downward, 0);
        assert.ok(s.minArea >= 1e-6, 'check at line 325');
        // the piece as draped: its rings with the split points (on the millimetre grid, so a hair off the straight side)
        const want = pieces[k].footprints.reduce(
          (a, f) => a + shoelace({ outer: splitRing(f.outer, lattice), holes: f.holes.map((h) => splitRing(h, lattice)) }),
          0,
        );
        assert.ok(Math.abs(s.area - want) <= 1e-6 * want + 1e-4, `draped triangulation ${s.area} vs ${want}`);
        assert.equal(inspectMesh(m.mesh, 1e-6).repeatedEdges, 0);
      });
    }),
    80,
  );
  console.log(`draped meshes: worst centroid distance to the ground ${worstCentroid.toFixed(3)} m (grid spacing 10 m)`);
});

test('surfaceMeshes: a draped square is subdivided at the grid lines and its nodes; a flat-ground sampler is not', () => {
  const ground = syntheticGround(10);
  const square = area('grass', rect(3, 3, 97, 97), 'way/1');
  const [m] = surfaceMeshes([square], { ground, drape: true });
  const s = meshStats(m.mesh, ground);
  assert.ok(s.maxEdge < 10 * Math.SQRT2 + 0.5, `edges up to ${s.maxEdge} m`);
  assert.ok(m.mesh.positions.length / 3 >= 81 + 4 * 10, 'grid nodes inside and crossings on the sides are vertices');
  // maxEdge: a finer lattice on the same terrain
  const [fine] = surfaceMeshes([square], { ground, drape: true, maxEdge: 5 });
  assert.ok(meshStats(fine.mesh, ground).maxEdge < 5 * Math.SQRT2 + 0.5, 'check at line 343');
  const flatGround = createGroundSampler(null, 7);
  const [flat] = surfaceMeshes([square], { ground: flatGround, drape: true });
  assert.equal(flat.mesh.positions.length / 3, 4);
  assert.ok(
    flat.mesh.positions.every((v, i) => i % 3 !== 2 || v === 7),
    'check at line 347',
  );
});

test('surfaceMeshes: with drape false each piece keeps its own vertices, each on the ground (fast-check)', () => {
  const ground = syntheticGround(10);
  holds(
    fc.property(sceneArb(false), ({ areas, buildings, clip }) => {
      const pieces = resolveOverlaps(areas, { cutOut: buildings, clip });
      for (const piece of pieces) {
        const mapped = new Set(piece.footprints.flatMap((fp) => [fp.outer, ...fp.holes]).flatMap((r) => r.map((_, i) => (i % 2 ? '' : `${r[i]},${r[i + 1]}`))));
        const [m] = surfaceMeshes([piece], { ground, drape: false });
        if (!m) continue;
        const p = m.mesh.positions;
        for (let i = 0; i < p.length; i += 3) {
          // at the terrain's level, never a plate buried under a hillside or floating over a valley
          assert.equal(p[i + 2], ground(p[i], p[i + 1]));
          assert.ok(mapped.has(`${p[i]},${p[i + 1]}`), 'a vertex that was not mapped');
        }
        assert.equal(meshStats(m.mesh).downward, 0);
      }
    }),
    40,
  );
});

test('surfaceMeshes: a bridge deck is a closed slab DECK_THICKNESS thick, its top on the deck and split every DECK_STEP', () => {
  const ground = syntheticGround(10);
  const linear = { start: { x: 0, y: 50, z: 60 }, end: { x: 100, y: 50, z: 70 } };
  // a profile: up from 60 to 66 over 50 m, level, down to 60
  const profiled = { ...linear, end: { x: 100, y: 50, z: 60 }, axes: [[0, 50, 60, 30, 50, 66, 70, 50, 66, 100, 50, 60]] };
  for (const deck of [linear, profiled]) {
    const piece = area('asphalt', rect(-5, 46, 105, 54), 'way/7', { deck });
    for (const options of [{ ground, drape: true }, { ground, drape: false }, { drape: true }]) {
      const [m] = surfaceMeshes([piece], options);
      const report = inspectMesh(m.mesh, 1e-6);
      assert.ok(report.closed, `open edges ${report.openEdges}, repeated ${report.repeatedEdges}`);
      assert.equal(report.degenerate, 0);
      assert.ok(Math.abs(report.volume - 110 * 8 * DECK_THICKNESS) < 1e-3 * 110 * 8, `volume ${report.volume}`);
      const p = m.mesh.positions;
      let tops = 0;
      for (let i = 0; i < p.length; i += 3) {
        const top = deckHeight(deck, p[i], p[i + 1]);
        const onTop = Math.abs(p[i + 2] - top) < 1e-9;
        assert.ok(onTop || Math.abs(p[i + 2] - (top - DECK_THICKNESS)) < 1e-9, `vertex at ${p[i + 2]}, deck ${top}`);
        if (onTop) tops++;
      }
      assert.ok(tops >= 2 * Math.ceil(110 / DECK_STEP), 'the long sides are split every DECK_STEP');
    }
  }
  assert.equal(deckHeight(profiled, 50, 53), 66);
  assert.equal(deckHeight(profiled, 15, 47), 63);
});

test("surfaceOutlines: every ring of every piece, closed, on the ground, on its mesh's vertices (but dropped specks) (fast-check)", () => {
  const ground = syntheticGround(10);
  holds(
    fc.property(sceneArb(true), ({ areas, buildings, clip }) => {
      const pieces = resolveOverlaps(areas, { cutOut: buildings, clip });
      for (const drape of [true, false]) {
        const lines = surfaceOutlines(pieces, { ground, drape });
        assert.equal(
          lines.length,
          pieces.reduce((a, p) => a + p.footprints.reduce((s, f) => s + 1 + f.holes.length, 0), 0),
        );
        let k = 0;
        for (const piece of pieces) {
          const [mesh] = surfaceMeshes([piece], { ground, drape });
          const vertexKeys = new Set<string>();
          for (let i = 0; i < mesh.mesh.positions.length; i += 3) vertexKeys.add(Array.from(mesh.mesh.positions.subarray(i, i + 3)).join(','));
          for (const fp of piece.footprints)
            for (let r = 0; r <= fp.holes.length; r++) {
              const line = lines[k++];
              assert.equal(line.closed, true);
              assert.equal(line.descriptor.kind, 'outline');
              assert.equal(line.descriptor.type, piece.descriptor.type);
              for (let i = 0; i < line.vertices.length; i += 3) {
                const [x, y, z] = [line.vertices[i], line.vertices[i + 1], line.vertices[i + 2]];
                if (drape && !piece.deck) assert.ok(Math.abs(z - ground(x, y)) < 0.01, 'check at line 432');
                if (vertexKeys.has(`${x},${y},${z}`)) continue;
                // the one exception: a corner of a hairline slit or speck, which the mesh can only drop
                // as degenerate triangles (under 1 mm² each) — it is then within millimetres of the mesh
                const p = mesh.mesh.positions;
                let nearest = Infinity;
                for (let v = 0; v < p.length; v += 3) nearest = Math.min(nearest, Math.hypot(p[v] - x, p[v + 1] - y, p[v + 2] - z));
                assert.ok(nearest < 0.005, `outline vertex ${nearest} m from the mesh`);
              }
            }
        }
      }
    }),
    40,
  );
});

test('drapeLine: a centerline is split at the grid lines and lies on the ground; a deck line is interpolated', () => {
  const ground = syntheticGround(10);
  const line = drapeLine({ points: [1, 1, 99, 57], closed: false, descriptor: { type: 'asphalt', kind: 'centerline' } }, { ground, drape: true });
  assert.equal(line.closed, false);
  assert.ok(line.vertices.length / 3 > 10, 'check at line 445');
  for (let i = 0; i < line.vertices.length; i += 3)
    assert.ok(Math.abs(line.vertices[i + 2] - ground(line.vertices[i], line.vertices[i + 1])) < 1e-9, 'check at line 446');
  for (let i = 3; i < line.vertices.length; i += 3)
    assert.ok(Math.hypot(line.vertices[i] - line.vertices[i - 3], line.vertices[i + 1] - line.vertices[i - 2]) <= 10 * Math.SQRT2 + 0.1, 'check at line 447');
  // not draped: the mapped vertices only, each on the ground
  const flat = drapeLine({ points: [1, 1, 99, 57], closed: false, descriptor: {} }, { ground, drape: false });
  assert.deepEqual(Array.from(flat.vertices), [1, 1, ground(1, 1), 99, 57, ground(99, 57)]);
  const deck = drapeLine(
    { points: [0, 0, 50, 0, 100, 0], closed: false, descriptor: {}, deck: { start: { x: 0, y: 0, z: 5 }, end: { x: 100, y: 0, z: 15 } } },
    { ground, drape: true },
  );
  assert.equal(deck.vertices.length / 3, 100 / DECK_STEP + 1, 'split every DECK_STEP');
  for (let i = 0; i < deck.vertices.length; i += 3) assert.ok(Math.abs(deck.vertices[i + 2] - (5 + deck.vertices[i] / 10)) < 1e-9);
});

test('a piece whose ring crosses itself in a tangle a few millimetres across is meshed over its own area, not laid over its neighbours', () => {
  // a filler piece of Monaco's ground (a 1.1 km square at 43.7355, 7.4225, its tile 5), cut by the
  // request's polygon: near (1101.27, 989.34) its ring zigzags back over itself; Clipper's
  // triangulation, the last fallback, "succeeded" with 756 m² of triangles for the 433 m² piece,
  // laid over the garden beside it
  const outer = [
    1052.559, 919.529, 1068.963, 933.433, 1069.079, 933.5310000000001, 1069.159, 933.615, 1069.124, 933.645, 1069.933, 934.708, 1070.368, 935.402, 1070.731,
    936.12, 1078.753, 951.908, 1078.789, 951.902, 1078.411, 960.417, 1078.314, 962.5980000000001, 1099.682, 985.567, 1101.686, 984.499, 1101.685, 988.905,
    1101.301, 989.314, 1101.272, 989.344, 1101.3, 989.316, 1101.271, 989.3430000000001, 1101.2350000000001, 989.309, 1101.27, 989.344, 1075.943,
    964.0360000000001, 1063.371, 939.296, 1045.83, 916.222, 1049.539, 913.871,
  ];
  const [mesh] = surfaceMeshes([{ kind: 'pavement', priority: 1, footprints: [{ outer, holes: [] }], descriptor: {} }], { drape: false });
  const p = mesh.mesh.positions,
    ix = mesh.mesh.indices;
  let area = 0;
  for (let t = 0; t < ix.length; t += 3) {
    const [a, b, c] = [3 * ix[t], 3 * ix[t + 1], 3 * ix[t + 2]];
    area += Math.abs((p[b] - p[a]) * (p[c + 1] - p[a + 1]) - (p[c] - p[a]) * (p[b + 1] - p[a + 1])) / 2;
  }
  assert.ok(Math.abs(area - 432.8) < 1, `${area.toFixed(1)} m² of triangles for a 432.8 m² piece`);
});
