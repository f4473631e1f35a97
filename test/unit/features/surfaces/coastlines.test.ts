/**
 * The coastlines a tile reads (src/features/surfaces/coastlines.ts) come from a per-thread copy of
 * the store's coastlines: for any box they must be exactly what a query of the water layer with
 * that box returns, filtered to coastlines, in the same order (fast-check over random boxes).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createLocalFrame } from '../../../../src/frame/local-frame.ts';
import { tileCoastlines } from '../../../../src/features/surfaces/coastlines.ts';
import type { TileContext } from '../../../../src/features/family.ts';
import type { LonLatBBox, OsmFeature } from '../../../../src/osm-model/feature.ts';
import type { OsmSource } from '../../../../src/sources/osm/types.ts';
import { featureMeets as meets, memoryOsmSource } from '../../../support/fakes/osm-source.ts';

const line = (id: string, tags: Record<string, string>, pts: number[]): OsmFeature => ({ id, layer: 'water', kind: 'line', tags, line: pts });
const FEATURES: OsmFeature[] = [
  line('way/1', { natural: 'coastline' }, [7.4, 43.7, 7.42, 43.72, 7.43, 43.74]),
  line('way/2', { waterway: 'stream' }, [7.41, 43.71, 7.415, 43.715]),
  line('way/3', { natural: 'coastline' }, [7.5, 43.8, 7.52, 43.81]),
  { id: 'way/4', layer: 'water', kind: 'area', tags: { natural: 'water' }, polygons: [[[7.42, 43.73, 7.421, 43.73, 7.421, 43.731]]] },
  line('way/5', { natural: 'coastline' }, [7.45, 43.75, 7.46, 43.7]),
];
let queries = 0;
const source: OsmSource = memoryOsmSource(FEATURES, () => queries++);
const frame = createLocalFrame(43.73, 7.42);

test('tile coastlines: the same as a water query of the box, filtered, in store order; the store is read once', () => {
  fc.assert(
    fc.property(
      fc.double({ min: 7.35, max: 7.55, noNaN: true }),
      fc.double({ min: 43.65, max: 43.85, noNaN: true }),
      fc.double({ min: 0.001, max: 0.1, noNaN: true }),
      (lon, lat, half) => {
        const box: LonLatBBox = { minLon: lon - half, minLat: lat - half, maxLon: lon + half, maxLat: lat + half };
        const tile = { source, frame, lonLatBBox: () => box } as unknown as TileContext;
        const expected = FEATURES.filter((f) => meets(f, box) && f.tags.natural === 'coastline').map((f) => f.id);
        assert.deepEqual(
          tileCoastlines(tile).map((c) => c.id),
          expected,
        );
      },
    ),
    { numRuns: 200 },
  );
  assert.equal(queries, 1, 'one query of the whole store, then filtered in memory');
});
