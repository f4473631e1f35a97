/**
 * The response schema (and so the OpenAPI document) describes what cropScene adds: the elevation
 * map's 0/1 `mask`, one value per height, and the descriptor's `cropped` / `intersectsBoundary`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DescriptorSchema, ElevationMapSchema } from '../../../src/contract/response-schema.ts';
import { buildOpenApiDocument } from '../../../src/contract/openapi.ts';

const info = { terrainSize: 10, segmentsCount: 1, moveVector: { x: 0, y: 0 }, width: 10, height: 10, segmentsWidth: 1, segmentsHeight: 1 };

test('an elevation map keeps its mask, one 0/1 per height; a mask of the wrong length or values is refused', () => {
  const entry = ElevationMapSchema.parse({ elevationMap: [1, 2, 3, 4], info, mask: [1, 0, 1, 1] });
  assert.deepEqual(entry.mask, [1, 0, 1, 1]);
  assert.equal(ElevationMapSchema.safeParse({ elevationMap: [1, 2, 3, 4], info, mask: [1, 0, 1] }).success, false);
  assert.equal(ElevationMapSchema.safeParse({ elevationMap: [1, 2, 3, 4], info, mask: [1, 0, 1, 2] }).success, false);
  assert.equal(ElevationMapSchema.safeParse({ elevationMap: [1, 2, 3, 4], info }).success, true, 'no mask without cropScene');
});

test('descriptors say cropped and intersectsBoundary as booleans, and the OpenAPI document lists both and the mask', () => {
  assert.equal(DescriptorSchema.safeParse({ type: 'building', cropped: 'yes' }).success, false);
  assert.equal(DescriptorSchema.parse({ type: 'building', cropped: true, intersectsBoundary: true }).cropped, true);
  const doc = JSON.stringify(buildOpenApiDocument());
  for (const word of ['"mask"', '"cropped"', '"intersectsBoundary"']) assert.ok(doc.includes(word), word);
});
