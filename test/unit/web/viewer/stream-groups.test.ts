/**
 * The page's reader of the streamed answer gets every item of every group, in order, whatever
 * sizes the network cuts the stream into — on documents the server's own writer produces
 * (response-stream.ts), with items full of braces, brackets, quotes and escapes in strings.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import fc from 'fast-check';
import { GeometryResponseWriter } from '../../../../src/server/response-stream.ts';
import { GeometryStreamReader } from '../../../../src/web/viewer/stream-groups.ts';

class Collect extends Writable {
  parts: Buffer[] = [];
  override _write(chunk: Buffer, _enc: string, cb: () => void) {
    this.parts.push(Buffer.from(chunk));
    cb();
  }
}

const nasty = fc.string({ unit: fc.constantFrom('{', '}', '[', ']', '"', '\\', ',', ':', 'a', 'é', '\n', ' ') });
const item = fc.record({
  vertices: fc.array(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }), { maxLength: 9 }),
  descriptor: fc.record({ type: nasty, id: nasty, nested: fc.array(fc.record({ k: nasty }), { maxLength: 2 }) }),
});
const scenario = fc.record({
  groups: fc.uniqueArray(fc.constantFrom('buildings', 'surface', 'barriers', 'instances', 'topo"graphy'), { minLength: 0, maxLength: 5 }),
  items: fc.array(fc.array(item, { maxLength: 4 }), { minLength: 5, maxLength: 5 }),
  cuts: fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 30 }),
  warning: nasty,
});

test('every item arrives once, in its group, in order, for any cutting of the stream; the rest parses at the end', () => {
  fc.assert(
    fc.property(scenario, ({ groups, items, cuts, warning }) => {
      const sink = new Collect();
      const w = new GeometryResponseWriter(sink);
      w.begin({ origin: [43.7, 7.4], spatialReference: { crs: 'local', note: '"geometry":[' } });
      groups.forEach((g) => w.declare(g, g, g === 'instances' ? 'nodes' : 'meshes'));
      groups.forEach((g, k) => {
        const list = items[k];
        if (list.length) w.chunk(g, Buffer.from(list.map((i) => JSON.stringify(i)).join(',')), list.length);
        w.done(g);
      });
      w.end({ warnings: [{ code: 'x', message: warning }], attributions: [{ text: '© OpenStreetMap' }], dataAccess: { granted: 'full' } });
      const text = Buffer.concat(sink.parts).toString('utf8');

      const got = new Map<string, unknown[]>();
      const ended: string[] = [];
      const reader = new GeometryStreamReader({
        group: (h) => got.set(h.type, []),
        item: (h, value) => got.get(h.type)!.push(value),
        groupEnd: (h) => ended.push(h.type),
      });
      let at = 0;
      for (let k = 0; at < text.length; k++) {
        const n = cuts[k % cuts.length];
        reader.push(text.slice(at, at + n));
        at += n;
      }
      const rest = reader.finish();
      const doc = JSON.parse(text);
      assert.deepEqual(
        [...got.keys()],
        doc.geometry.map((g: { type: string }) => g.type),
      );
      assert.deepEqual(ended, [...got.keys()]);
      for (const g of doc.geometry) assert.deepEqual(got.get(g.type), g.meshes ?? g.nodes);
      assert.deepEqual(rest, { ...doc, geometry: [] });
    }),
    { numRuns: 300 },
  );
});

test('a stream cut short does not finish', () => {
  const reader = new GeometryStreamReader({ group: () => {}, item: () => {}, groupEnd: () => {} });
  reader.push('{"origin":[1,2],"spatialReference":{},"geometry":[{"type":"buildings","geometryType":"meshes","meshes":[{"vertices":[');
  assert.throws(() => reader.finish(), /ended before it was complete/);
});
