/**
 * roadSurfaces(…, { within }) builds only what meets a box (a tile) from the whole ways: inside
 * the box the areas must be exactly those of the whole build — same ids, same ground (up to
 * Clipper's millimetre grid). Property over the generated road graphs of
 * test/support/scenes/road-scenes.ts and random boxes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Clipper, FillRule, type PathsD } from 'clipper2-ts';
import { roadSurfaces, type RoadInput, type RoadSurfaces } from '../../../../../src/geometry/surfaces/roads/road-surfaces.ts';
import type { BBox } from '../../../../../src/geometry/types.ts';
import { chain, len, scenes } from '../../../../support/scenes/road-scenes.ts';

/** Area (m²) and outline length (m) of each area id's footprints inside `box`, the ids that have any. */
function areasInside(r: RoadSurfaces, box: BBox): Map<string, { area: number; outline: number }> {
  const clip: PathsD = [Clipper.makePathD([box.minX, box.minY, box.maxX, box.minY, box.maxX, box.maxY, box.minX, box.maxY])];
  const out = new Map<string, { area: number; outline: number }>();
  for (const a of r.areas) {
    const paths: PathsD = [];
    for (const f of a.footprints) for (const ring of [f.outer, ...f.holes]) paths.push(Clipper.makePathD(ring));
    const parts = Clipper.intersectD(paths, clip, FillRule.NonZero, 4);
    const area = parts.reduce((s, p) => s + Clipper.areaD(p), 0);
    if (area < 1e-6) continue;
    let outline = 0;
    for (const p of parts) for (let i = 0; i < p.length; i++) outline += Math.hypot(p[i].x - p[(i + 1) % p.length].x, p[i].y - p[(i + 1) % p.length].y);
    const key = `${a.descriptor.id}|${a.descriptor.sidewalk ?? ''}`;
    const sum = out.get(key) ?? { area: 0, outline: 0 };
    out.set(key, { area: sum.area + area, outline: sum.outline + outline });
  }
  return out;
}

test('roads built within a box are those of the whole ways inside it (fast-check)', () => {
  fc.assert(
    fc.property(fc.oneof(scenes, chain), len(-60, 260), len(-60, 260), len(1, 120), (scene, cx, cy, half) => {
      const within: BBox = { minX: cx - half, minY: cy - half, maxX: cx + half, maxY: cy + half };
      const whole = areasInside(roadSurfaces(scene.roads), within);
      const near = areasInside(roadSurfaces(scene.roads, { within }), within);
      // the same ids with the same ground, up to Clipper's millimetre grid: crossings rounded
      // elsewhere tilt sides by < 1 mm (and can leave a speck at the box's edge)
      const none = { area: 0, outline: 0 };
      for (const id of new Set([...whole.keys(), ...near.keys()])) {
        const w = whole.get(id) ?? none,
          n = near.get(id) ?? none;
        assert.ok(Math.abs(n.area - w.area) <= 1e-4 + 1e-3 * Math.max(w.outline, n.outline), `${id}: ${n.area} m² within, ${w.area} m² whole`);
      }
    }),
    { numRuns: 400 },
  );
});

test('a box around a star junction: strips trimmed back past the box still cut the sidewalk corner that reaches in (fast-check seed -1573039343)', () => {
  // ways at acute angles trim their strips back past the box, while the sidewalk corner reaches out
  // over them: unless those strips cut it, its leftover outside the box kept a speck inside it joined
  // that the whole build drops as too small
  const roads: RoadInput[] = [
    {
      id: 'way/100',
      tags: { highway: 'residential', sidewalk: 'left' },
      points: [
        68.68783613097337, 12.111518756372345, 45.87685484397512, 8.089327299038647, 0, 0, 12.880722107994396, -10.808209170115141, 54.60708089850415,
        -45.820781441602755,
      ],
    },
    {
      id: 'way/103',
      tags: { highway: 'service', sidewalk: 'left', tunnel: 'yes' },
      points: [0, 0, 1.386689821522885, -0.8006057417387527, 4.401354240898403, -2.5411230557815974],
    },
    {
      id: 'way/104',
      tags: { highway: 'service', oneway: 'yes', 'sidewalk:both:width': '2.1' },
      points: [0, 0, 11.498034269326856, -4.1849422266077285, 55.54943993358008, 17.14508812925302],
    },
    {
      id: 'way/105',
      tags: { highway: 'service', width: '5.4', lanes: '2', 'sidewalk:both:width': '3.2' },
      points: [0, 0, 31.082758532931543, -5.480728964202125, 78.7846202409764, -13.89185421335446],
    },
    {
      id: 'way/106',
      tags: { highway: 'secondary', oneway: 'yes', sidewalk: 'left' },
      points: [0, 0, 7.087412864416998, -8.030802653409038e-15, 10.065848487992392, -1.14056912293104e-14],
    },
  ];
  const within: BBox = { minX: -7.465, minY: -7.465, maxX: 7.465, maxY: 7.465 };
  const whole = areasInside(roadSurfaces(roads), within),
    near = areasInside(roadSurfaces(roads, { within }), within);
  assert.deepEqual([...near.keys()].sort(), [...whole.keys()].sort());
  for (const [id, w] of whole)
    assert.ok(Math.abs(near.get(id)!.area - w.area) <= 1e-4 + 1e-3 * w.outline, `${id}: ${near.get(id)!.area} m² within, ${w.area} m² whole`);
});

test('roads built within a box: nothing is built far outside it', () => {
  const roads = [
    { id: 'way/1', tags: { highway: 'residential' }, points: [-1000, 0, 0, 0, 1000, 0] },
    { id: 'way/2', tags: { highway: 'residential' }, points: [0, 0, 0, 500] },
  ];
  const r = roadSurfaces(roads, { within: { minX: -50, minY: -50, maxX: 50, maxY: 50 } });
  for (const a of r.areas)
    for (const f of a.footprints) for (let i = 0; i < f.outer.length; i += 2) assert.ok(Math.abs(f.outer[i]) <= 1000 && f.outer[i + 1] <= 500);
  // the whole ways are one segment each side of the junction: strips of segments meeting the box are built whole
  const ids = r.areas.map((a) => a.descriptor.id).sort();
  assert.deepEqual(ids, ['junction/way/1+way/2', 'way/1', 'way/2']);
  const far = roadSurfaces([...roads, { id: 'way/3', tags: { highway: 'residential' }, points: [2000, 2000, 2100, 2000] }], {
    within: { minX: -50, minY: -50, maxX: 50, maxY: 50 },
  });
  assert.ok(!far.areas.some((a) => a.descriptor.id === 'way/3'), 'a way far from the box gives nothing');
  assert.ok(!far.centerlines.some((l) => l.descriptor.id === 'way/3'));
});
