import { test } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { GROUND_COLOURS, renderSurfacePng } from '../../../../support/ground-png.ts';
import { resolveOverlaps } from '../../../../../src/geometry/surfaces/assemble/resolve-overlaps.ts';
import { surfaceMeshes } from '../../../../../src/geometry/surfaces/assemble/surface-meshes.ts';
import { SURFACE_PRIORITY } from '../../../../../src/geometry/surfaces/priority.ts';

test('renderSurfacePng writes a PNG of the right size, each kind in its colour, building cut-outs in the background colour', async () => {
  const clip = { outer: [0, 0, 10, 0, 10, 5, 0, 5], holes: [] };
  const road = {
    kind: 'asphalt' as const,
    priority: SURFACE_PRIORITY.asphalt,
    footprints: [{ outer: [0, 0, 10, 0, 10, 2, 0, 2], holes: [] }],
    descriptor: { type: 'asphalt', id: 'way/1' },
  };
  const building = { outer: [6, 3, 8, 3, 8, 4.5, 6, 4.5], holes: [] };
  const meshes = surfaceMeshes(resolveOverlaps([road], { cutOut: [building], clip }), { drape: false });
  const png = await renderSurfacePng(meshes, { minX: 0, minY: 0, maxX: 10, maxY: 5 }, 4, GROUND_COLOURS, { background: [255, 255, 255] });
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
  const meta = await sharp(png).metadata();
  assert.equal(meta.format, 'png');
  assert.equal(meta.width, 40);
  assert.equal(meta.height, 20);
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => {
    const k = info.channels * (Math.floor((5 - y) * 4) * info.width + Math.floor(x * 4));
    return [data[k], data[k + 1], data[k + 2]];
  };
  assert.deepEqual(at(5, 1), [...GROUND_COLOURS.asphalt], 'road, south');
  assert.deepEqual(at(2, 4), [...GROUND_COLOURS.grass], 'base ground, north');
  assert.deepEqual(at(7, 3.7), [255, 255, 255], 'building cut-out');
  // every pixel is painted: no seams between triangles or pieces outside the building
  let blank = 0;
  for (let y = 0; y < 20; y++)
    for (let x = 0; x < 40; x++) {
      const k = info.channels * (y * 40 + x);
      const inBuilding = x >= 24 && x < 32 && y >= 2 && y < 8;
      if (!inBuilding && data[k] === 255 && data[k + 1] === 255 && data[k + 2] === 255) blank++;
    }
  assert.equal(blank, 0, 'unpainted pixels outside the building');
});
