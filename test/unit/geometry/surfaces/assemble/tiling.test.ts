/**
 * Same ground, any tiling, where roads cross the seams: the generated road graphs of
 * test/support/scenes/road-scenes.ts built whole in a square and built tile by tile (roadSurfaces
 * `within` each tile, resolveOverlaps clipped to it, as the ground family does) give the same
 * roads and the same base ground — the pieces of a road on both sides of a seam meet and no
 * filler lies in a road. What may differ is what the tiles' edges themselves decide: a sliver under
 * 5 cm between a road and a seam goes to the road (resolve-overlaps.ts), so nothing of the
 * difference is 10 cm wide anywhere.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Clipper, ClipType, FillRule } from 'clipper2-ts';
import { roadSurfaces } from '../../../../../src/geometry/surfaces/roads/road-surfaces.ts';
import { resolveOverlaps } from '../../../../../src/geometry/surfaces/assemble/resolve-overlaps.ts';
import type { SurfaceArea } from '../../../../../src/geometry/surfaces/types.ts';
import type { BBox } from '../../../../../src/geometry/types.ts';
import { openPieces, pathsOf, totalArea } from '../../../../../src/geometry/planar/pieces.ts';
import { chain, len, scenes, type Scene } from '../../../../support/scenes/road-scenes.ts';
import { rect } from '../../../../support/scenes/shapes.ts';
import { holds } from '../../../../support/arbitraries/holds.ts';

function ground(roads: Scene['roads'], box: BBox): SurfaceArea[] {
  const built = roadSurfaces(roads, { within: box });
  return resolveOverlaps(built.areas, { cutOut: [], clip: { outer: rect(box.minX, box.minY, box.maxX, box.maxY), holes: [] } });
}

/** The ground-level pieces that are not the filler (roads, sidewalks, junctions). */
const roadsOf = (areas: readonly SurfaceArea[]) => areas.filter((a) => !a.deck && !a.descriptor.inferred).flatMap((a) => a.footprints);
const fillerOf = (areas: readonly SurfaceArea[]) => areas.filter((a) => a.descriptor.inferred).flatMap((a) => a.footprints);

/** Parts of the symmetric difference of two sets of footprints that are `width` wide or more, m². */
function wideDifference(a: SurfaceArea['footprints'], b: SurfaceArea['footprints'], width: number): number {
  const xor = Clipper.booleanOp(ClipType.Xor, Clipper.union(pathsOf(a), FillRule.NonZero), Clipper.union(pathsOf(b), FillRule.NonZero), FillRule.NonZero);
  return totalArea(openPieces(xor, width, 0));
}

test('property: roads across tile seams — built whole or tile by tile, the same roads and the same filler (no difference 10 cm wide)', () => {
  let worst = 0;
  holds(
    fc.property(fc.oneof(scenes, chain), len(-40, 140), len(-40, 140), len(40, 160), len(0.2, 0.8), len(0.2, 0.8), (scene, cx, cy, half, fx, fy) => {
      const box: BBox = { minX: cx - half, minY: cy - half, maxX: cx + half, maxY: cy + half };
      const mx = box.minX + fx * 2 * half,
        my = box.minY + fy * 2 * half;
      const tiles: BBox[] = [
        { minX: box.minX, minY: box.minY, maxX: mx, maxY: my },
        { minX: mx, minY: box.minY, maxX: box.maxX, maxY: my },
        { minX: box.minX, minY: my, maxX: mx, maxY: box.maxY },
        { minX: mx, minY: my, maxX: box.maxX, maxY: box.maxY },
      ];
      const whole = ground(scene.roads, box);
      const parts = tiles.flatMap((t) => ground(scene.roads, t));
      const roads = wideDifference(roadsOf(whole), roadsOf(parts), 0.1),
        filler = wideDifference(fillerOf(whole), fillerOf(parts), 0.1);
      worst = Math.max(worst, roads, filler);
      assert.ok(roads === 0, `${scene.name}: the roads differ by ${roads.toFixed(4)} m² of ground 10 cm wide or more`);
      assert.ok(filler === 0, `${scene.name}: the filler differs by ${filler.toFixed(4)} m² of ground 10 cm wide or more`);
    }),
    60,
  );
  console.log(`roads across seams: worst wide difference ${worst} m²`);
});
