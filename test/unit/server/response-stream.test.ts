import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import fc from 'fast-check';
import { GeometryResponseWriter } from '../../../src/server/response-stream.ts';

class Collect extends Writable {
  parts: Buffer[] = [];
  override _write(chunk: Buffer, _enc: string, cb: () => void) {
    this.parts.push(Buffer.from(chunk));
    cb();
  }
  text() {
    return Buffer.concat(this.parts).toString('utf8');
  }
}

/** Chunks of items `"<group>:<n>"` arriving from tiles in any interleaving. */
const scenario = fc.record({
  groups: fc.uniqueArray(fc.constantFrom<string>('buildings', 'surface', 'barriers', 'instances'), { minLength: 1, maxLength: 4 }),
  tiles: fc.integer({ min: 1, max: 6 }),
  counts: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 24, maxLength: 24 }),
  seed: fc.integer(),
});

test('any interleaving of tile chunks gives one valid document with every item exactly once', () => {
  fc.assert(
    fc.property(scenario, ({ groups, tiles, counts, seed }) => {
      const sink = new Collect();
      const w = new GeometryResponseWriter(sink);
      w.begin({ origin: [43.7, 7.4], spatialReference: { crs: 'local' } });
      for (const g of groups) w.declare(g, g, 'meshes');
      const events: { g: string; t: number }[] = [];
      for (const g of groups) for (let t = 0; t < tiles; t++) events.push({ g, t });
      // deterministic shuffle from the seed
      let s = seed >>> 0;
      for (let k = events.length - 1; k > 0; k--) {
        s = (s * 1664525 + 1013904223) >>> 0;
        const r = s % (k + 1);
        [events[k], events[r]] = [events[r], events[k]];
      }
      const expected = new Map<string, string[]>();
      const left = new Map(groups.map((g) => [g, tiles]));
      events.forEach(({ g, t }, k) => {
        const n = counts[k % counts.length];
        const items = Array.from({ length: n }, (_, m) => `"${g}:${t}:${m}"`);
        expected.set(g, [...(expected.get(g) ?? []), ...items.map((i) => JSON.parse(i))]);
        w.chunk(g, Buffer.from(items.join(',')), n);
        left.set(g, left.get(g)! - 1);
        if (left.get(g) === 0) w.done(g);
      });
      w.end({ attributions: [{ id: 'osm' }], dataAccess: { granted: 'full' } });
      const doc = JSON.parse(sink.text());
      assert.deepEqual(Object.keys(doc), ['origin', 'spatialReference', 'geometry', 'warnings', 'attributions', 'dataAccess']);
      assert.deepEqual(doc.warnings, [], 'warnings are always present, empty when all is well');
      assert.deepEqual(doc.geometry.map((g: { type: string }) => g.type).sort(), [...groups].sort());
      for (const g of doc.geometry) assert.deepEqual([...g.meshes].sort(), [...(expected.get(g.type) ?? [])].sort());
    }),
    { numRuns: 500 },
  );
});

test('origin and spatialReference are written before any geometry arrives', () => {
  const sink = new Collect();
  const w = new GeometryResponseWriter(sink);
  w.begin({ origin: [1, 2], spatialReference: { crs: 'local', origin: [1, 2] } });
  w.declare('buildings', 'buildings', 'meshes');
  assert.match(sink.text(), /^\{"origin":\[1,2\],"spatialReference":\{"crs":"local","origin":\[1,2\]\},"geometry":\[$/);
});
