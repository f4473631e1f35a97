/**
 * The ground assembly on two busy 500 m tiles (test/support/scenes/busy-tile.ts: a street grid of ~2,000
 * areas and a stress tile of ~2,000 crossing strips and blobs, each with 800 buildings): every
 * piece valid, no overlaps, pieces covering clip − buildings, meshes upward and on the terrain,
 * one outline per ring. Untimed: the time of each step is printed by `npm run bench`
 * (scripts/bench/lib/assemble-tile-bench.ts), as speed targets live in the benchmark.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Clipper, FillRule } from 'clipper2-ts';
import type { Footprint } from '../../../../../src/geometry/types.ts';
import type { SurfaceArea } from '../../../../../src/geometry/surfaces/types.ts';
import { BASE_GROUND_PRIORITY } from '../../../../../src/geometry/surfaces/priority.ts';
import { resolveOverlaps } from '../../../../../src/geometry/surfaces/assemble/resolve-overlaps.ts';
import { surfaceMeshes } from '../../../../../src/geometry/surfaces/assemble/surface-meshes.ts';
import { surfaceOutlines } from '../../../../../src/geometry/surfaces/assemble/surface-outlines.ts';
import { inspectMesh } from '../../../../../src/geometry/mesh-checks.ts';
import { signedArea2 } from '../../../../../src/geometry/ring.ts';
import { assertValidPolygon, m2, mmPaths as paths, perimeterOf } from '../../../../support/checks/footprints.ts';
import { busyTerrain, randomTile, streetTile, type BusyTileMaker } from '../../../../support/scenes/busy-tile.ts';

const union = (fps: readonly Footprint[]) => Clipper.union(paths(fps), FillRule.NonZero);
/** A polygon's own area (outer minus holes), by the shoelace formula. */
const ownArea = (f: Footprint) => (Math.abs(signedArea2(f.outer)) - f.holes.reduce((a, h) => a + Math.abs(signedArea2(h)), 0)) / 2;

interface Resolved {
  name: string;
  clip: Footprint;
  buildings: Footprint[];
  pieces: SurfaceArea[];
  polygons: Footprint[];
}

function resolved(name: string, make: BusyTileMaker): Resolved {
  const { areas, buildings, clip } = make(7);
  const pieces = resolveOverlaps(areas, { cutOut: buildings, clip });
  return { name, clip, buildings, pieces, polygons: pieces.flatMap((p) => p.footprints) };
}

const where = (r: Resolved, p: SurfaceArea) => `${r.name} ${String(p.descriptor.id ?? p.descriptor.type)}`;

/** Every polygon valid; the base ground comes last, once. */
function checkPieces(r: Resolved): void {
  assert.ok(r.pieces.length > 500 && r.polygons.length > 1000, `${r.pieces.length} pieces, ${r.polygons.length} polygons`);
  for (const p of r.pieces) for (const fp of p.footprints) assertValidPolygon(fp, where(r, p));
  const base = r.pieces.filter((p) => p.priority === BASE_GROUND_PRIORITY);
  assert.equal(base.length, 1, `${r.name}: one base ground`);
  assert.equal(r.pieces.at(-1), base[0]);
  assert.deepEqual(base[0].descriptor, { type: 'grass', inferred: true });
}

/**
 * No overlaps, nothing under a building or outside the tile, tile − buildings covered. Exactness as
 * resolve-overlaps.ts documents it: wedges under a millimetre along the sides Clipper tilted are the
 * only overlaps and gaps; summed over all sides, at most 0.5 mm × their length.
 */
function checkTiling({ name, clip, buildings, polygons }: Resolved): void {
  const perimeter = perimeterOf(polygons);
  const wedges = 0.5e-3 * perimeter;
  const all = union(polygons);
  const unionArea = m2(all),
    summed = polygons.reduce((s, f) => s + ownArea(f), 0);
  assert.ok(summed - unionArea <= wedges, `${name}: pieces overlap by ${(summed - unionArea).toFixed(3)} m² (wedges allowed: ${wedges.toFixed(3)} m²)`);
  const under = m2(Clipper.intersect(all, paths(buildings), FillRule.NonZero));
  assert.ok(under <= wedges, `${name}: ${under.toFixed(3)} m² of ground under buildings (wedges allowed: ${wedges.toFixed(3)} m²)`);
  assert.ok(m2(Clipper.difference(all, paths([clip]), FillRule.NonZero)) <= wedges, `${name}: ground outside the tile`);
  const expected = m2(Clipper.difference(paths([clip]), paths(buildings), FillRule.NonZero));
  assert.ok(Math.abs(unionArea - expected) <= 1e-3 * expected, `${name}: pieces cover ${unionArea.toFixed(1)} m², clip − buildings ${expected.toFixed(1)} m²`);
}

/** Meshes: one per piece, upward and sound; flat at z = 0 without terrain, on the ground when draped. Outlines: one closed ring per ring. */
function checkMeshesAndOutlines(r: Resolved): void {
  const { name, pieces, polygons } = r;
  const ground = busyTerrain(500 / 16);
  for (const [label, meshes] of [
    ['flat', surfaceMeshes(pieces, { drape: true })],
    ['draped', surfaceMeshes(pieces, { ground, drape: true })],
  ] as const) {
    assert.equal(meshes.length, pieces.length, `${name} ${label}: one mesh per piece`);
    meshes.forEach((m, k) => {
      const at = `${where(r, pieces[k])} ${label}`;
      const report = inspectMesh(m.mesh, 1e-6);
      assert.equal(report.degenerate, 0, `${at}: degenerate triangles`);
      assert.equal(report.repeatedEdges, 0, `${at}: inconsistent winding`);
      const p = m.mesh.positions,
        idx = m.mesh.indices;
      let planArea = 0;
      for (let t = 0; t < idx.length; t += 3) {
        const a = 3 * idx[t],
          b = 3 * idx[t + 1],
          c = 3 * idx[t + 2];
        const a2 = (p[b] - p[a]) * (p[c + 1] - p[a + 1]) - (p[b + 1] - p[a + 1]) * (p[c] - p[a]);
        assert.ok(a2 > 0, `${at}: a triangle faces down`);
        planArea += a2 / 2;
      }
      // draped sides are split at the grid lines on the millimetre grid (drape.ts: a split point moves
      // off its side by under 0.71 mm), so the draped plan area may differ by that much along the sides
      const fps = pieces[k].footprints,
        want = fps.reduce((s, f) => s + ownArea(f), 0);
      const slack = label === 'flat' ? 1e-6 * want + 1e-4 : 0.71e-3 * perimeterOf(fps);
      assert.ok(Math.abs(planArea - want) <= slack, `${at}: triangles cover ${planArea} m² of ${want} m²`);
      for (let i = 2; i < p.length; i += 3) {
        const z = label === 'flat' ? 0 : ground(p[i - 2], p[i - 1]);
        assert.ok(Math.abs(p[i] - z) <= 0.01, `${at}: a vertex ${(p[i] - z).toFixed(3)} m off the ground`);
      }
    });
  }
  const outlines = surfaceOutlines(pieces, { ground, drape: true });
  assert.equal(
    outlines.length,
    polygons.reduce((s, f) => s + 1 + f.holes.length, 0),
    `${name}: one outline per ring`,
  );
  for (const l of outlines) {
    assert.ok(l.closed && l.descriptor.kind === 'outline' && typeof l.descriptor.type === 'string');
    for (let i = 2; i < l.vertices.length; i += 3)
      assert.ok(Math.abs(l.vertices[i] - ground(l.vertices[i - 2], l.vertices[i - 1])) <= 0.01, `${name}: outline off the ground`);
  }
}

for (const [label, make] of [
  ['busy street grid (~2,000 areas, 800 buildings, 500 m tile)', streetTile],
  ['busy stress tile (~2,000 crossing strips and blobs, 800 buildings)', randomTile],
] as const) {
  test(label, async (t) => {
    const r = resolved(label.split(' (')[0], make);
    await t.test('every piece a valid polygon; one base ground, last', () => checkPieces(r));
    await t.test('no overlaps, nothing under a building, tile − buildings covered', () => checkTiling(r));
    await t.test('meshes upward, sound, covering their piece, on the terrain; one outline per ring', () => checkMeshesAndOutlines(r));
  });
}
