/**
 * Our 3dm archive writer (src/export/formats/rhino3dm-archive.ts and the records built on it),
 * judged byte by byte on fixed input and by OpenNURBS (rhino3dm's `File3dm.fromByteArray`)
 * reading files back: chunk lengths and CRCs, UTF-16 strings, compressed buffers, a mesh past
 * 65 535 vertices in absolute grid coordinates kept exact, and a property over random meshes,
 * polylines and user strings.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { crc32 as zlibCrc32, inflateSync } from 'node:zlib';
import fc from 'fast-check';
import rhino3dm, { type File3dm, type RhinoModule } from 'rhino3dm';
import { ArchiveWriter, crc32, DEFLATE_MIN } from '../../../../src/export/formats/rhino3dm-archive.ts';
import { TCODE, uuidBytes, UuidSource } from '../../../../src/export/formats/rhino3dm-codes.ts';
import { vertexNormals } from '../../../../src/export/formats/rhino3dm-objects.ts';
import { objectName, writeRhino3dm } from '../../../../src/export/formats/rhino3dm.ts';
import type { ExportMesh, ExportPolyline, ExportScene } from '../../../../src/export/scene.ts';
import { free } from '../../../support/checks/rhino3dm-free.ts';
import { sampleScene } from '../../../support/scenes/export-scenes.ts';

let rh: RhinoModule;
before(async () => {
  rh = await rhino3dm();
});

const le32 = (b: Uint8Array, at: number) => new DataView(b.buffer, b.byteOffset).getUint32(at, true);
const le64 = (b: Uint8Array, at: number) => Number(new DataView(b.buffer, b.byteOffset).getBigInt64(at, true));

test('a chunk: typecode, 8-byte length, and a CRC-32 of its direct bytes only (nested chunks count in their own)', () => {
  const w = new ArchiveWriter();
  w.begin(TCODE.ANONYMOUS_CHUNK);
  w.bytes(new TextEncoder().encode('1234'));
  w.chunk(TCODE.ANONYMOUS_CHUNK, () => w.u8(9));
  w.bytes(new TextEncoder().encode('56789'));
  w.short(TCODE.ENDOFTABLE, 0);
  w.end();
  const b = w.takeBytes();
  assert.equal(le32(b, 0), 0x40008000);
  // 4 + (12 + 1 + 4) + 5 + 12 + 4: direct bytes, the nested chunk, the short chunk, the CRC
  assert.equal(le64(b, 4), 42);
  assert.equal(b.length, 12 + 42);
  // the nested chunk's own CRC covers its one byte
  assert.equal(le64(b, 16 + 4), 5);
  assert.equal(le32(b, 16 + 13), crc32(Uint8Array.of(9)));
  // the outer CRC is the CRC-32 check value of "123456789": the nested and short chunks left out
  assert.equal(le32(b, b.length - 4), 0xcbf43926);
});

test('a chunk without the CRC bit has none; a short chunk holds its value', () => {
  const w = new ArchiveWriter();
  w.chunk(TCODE.OBJECT_TABLE, () => w.i32(7));
  w.short(TCODE.OBJECT_RECORD_TYPE, 32);
  const b = w.takeBytes();
  assert.deepEqual([le32(b, 0), le64(b, 4), le32(b, 12)], [TCODE.OBJECT_TABLE, 4, 7]);
  assert.deepEqual([le32(b, 16), le64(b, 20)], [0x82000071, 32]);
  assert.equal(b.length, 28);
  assert.throws(() => w.short(TCODE.OBJECT_TABLE, 1), /not a short chunk/);
});

test('strings are UTF-16 with their NUL counted; an empty string is a bare 0', () => {
  const w = new ArchiveWriter();
  w.string('aé😀');
  w.string('');
  const b = w.takeBytes();
  assert.equal(le32(b, 0), 5);
  assert.deepEqual([...b.subarray(4, 14)], [0x61, 0, 0xe9, 0, 0x3d, 0xd8, 0x00, 0xde, 0, 0]);
  assert.equal(le32(b, 14), 0);
  assert.equal(b.length, 18);
});

test('UUIDs in archive byte order; derived ids are version 5, the same for the same key and occurrence, distinct otherwise', () => {
  assert.deepEqual(
    [...uuidBytes('4ED7D4E4-E947-11d3-BFE5-0010830122F0')],
    [0xe4, 0xd4, 0xd7, 0x4e, 0x47, 0xe9, 0xd3, 0x11, 0xbf, 0xe5, 0x00, 0x10, 0x83, 0x01, 0x22, 0xf0],
  );
  const hex = (id: Uint8Array) => Buffer.from(id).toString('hex');
  const draw = () => {
    const ids = new UuidSource();
    // 2500 names, each twice (a ground area cut by two tiles has one name)
    return Array.from({ length: 5000 }, (_, i) => ids.next(`way/${i % 2500}`));
  };
  const first = draw(),
    again = draw();
  for (const id of first) {
    assert.equal(id[7] >> 4, 5);
    assert.equal(id[8] >> 6, 2);
  }
  assert.equal(new Set(first.map(hex)).size, 5000);
  assert.deepEqual(again.map(hex), first.map(hex));
  assert.notEqual(hex(new UuidSource().next('way/1')), hex(new UuidSource().next('way/2')));
});

test('compressed buffers: short ones stored, longer ones a zlib stream in an anonymous chunk, all stored at level 0', () => {
  const small = new Uint8Array(DEFLATE_MIN - 1).fill(7),
    big = new Float64Array(DEFLATE_MIN / 8).fill(4843000.123);
  const w = new ArchiveWriter(1);
  w.compressed(small);
  const a = w.takeBytes();
  assert.deepEqual([le32(a, 0), le32(a, 4), a[8]], [small.length, crc32(small), 0]);
  assert.equal(a.length, 9 + small.length);
  w.compressed(big);
  const b = w.takeBytes();
  assert.deepEqual([le32(b, 0), le32(b, 4), b[8], le32(b, 9)], [DEFLATE_MIN, crc32(new Uint8Array(big.buffer)), 1, TCODE.ANONYMOUS_CHUNK]);
  const len = le64(b, 13);
  assert.ok(len < DEFLATE_MIN / 10, 'deflated');
  assert.deepEqual(new Float64Array(new Uint8Array(inflateSync(b.subarray(21, 21 + len - 4))).buffer), big);
  const stored = new ArchiveWriter(0);
  stored.compressed(big);
  assert.equal(stored.takeBytes()[8], 0);
});

test("our CRC-32 of short runs is zlib's", () => {
  fc.assert(fc.property(fc.uint8Array({ maxLength: 600 }), fc.nat(), (b, seed) => assert.equal(crc32(b, seed >>> 0), zlibCrc32(b, seed >>> 0))));
});

test('vertex normals: unit, area-weighted, outward on a box', () => {
  const n = vertexNormals(new Float64Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), new Uint32Array([0, 1, 2]));
  assert.deepEqual([...n], [0, 0, 1, 0, 0, 1, 0, 0, 1]);
});

/** A scene of the given meshes and polylines (one group each) in absolute placement. */
function scene(meshes: ExportMesh[], polylines: ExportPolyline[] = []): ExportScene {
  const s = sampleScene({ placement: 'absolute' });
  s.groups = [
    { name: 'buildings', meshes, polylines: [], nodes: [] },
    { name: 'surfaceLines', meshes: [], polylines, nodes: [] },
  ];
  return s;
}

function read(s: ExportScene): File3dm {
  const doc = rh.File3dm.fromByteArray(writeRhino3dm(s).bytes);
  assert.ok(doc, 'OpenNURBS reads the file');
  return doc;
}

/** A flat grid of (n+1)² vertices and 2n² triangles at absolute grid coordinates. */
function gridMesh(id: string, n: number, x0: number, y0: number): ExportMesh {
  const positions = new Float64Array(3 * (n + 1) ** 2),
    indices = new Uint32Array(6 * n * n);
  for (let j = 0, v = 0; j <= n; j++)
    for (let i = 0; i <= n; i++, v += 3) positions.set([x0 + i * 0.25 + 0.001 * (j % 7), y0 + j * 0.25, 12.345 + 0.001 * i], v);
  for (let j = 0, t = 0; j < n; j++) {
    for (let i = 0; i < n; i++, t += 6) {
      const a = j * (n + 1) + i,
        b = a + 1,
        c = a + n + 1,
        d = c + 1;
      indices.set([a, b, d, a, d, c], t);
    }
  }
  return { id, kind: 'building', positions, indices, descriptor: { type: 'building', id } };
}

test('meshes read back exactly: vertex counts 4, 300 and 66 049 (32-bit face indices), absolute coordinates to the last bit', () => {
  const meshes = [
    gridMesh('way/small', 1, 370_000.5, 4_843_000.123),
    gridMesh('way/mid', 16, 370_100.001, 4_843_000.123),
    gridMesh('way/big', 256, 369_000.007, 4_842_000.123),
  ];
  const doc = read(scene(meshes));
  const objects = doc.objects();
  assert.equal(objects.count, 3);
  for (let k = 0; k < 3; k++) {
    const o = objects.get(k),
      m = meshes[k],
      g = o.geometry() as any,
      a = o.attributes();
    assert.equal(a.name, objectName(m.id));
    const vertices = g.vertices(),
      faces = g.faces();
    assert.equal(vertices.count, m.positions.length / 3);
    assert.equal(vertices.useDoublePrecisionVertices, true);
    assert.equal(faces.triangleCount, m.indices.length / 3);
    for (const v of [0, 1, vertices.count - 1, vertices.count >> 1]) {
      assert.deepEqual(vertices.point3dAt(v), [...m.positions.subarray(3 * v, 3 * v + 3)], `${m.id} vertex ${v}`);
    }
    const last = m.indices.length / 3 - 1,
      f = faces.get(last);
    assert.deepEqual(f.slice(0, 3), [...m.indices.subarray(3 * last)], `${m.id} last face`);
    free(faces, vertices, g, a, o);
  }
  free(objects, doc);
});

/** No lone surrogates (UTF-16 in the file) and no NUL (OpenNURBS strings end at one). */
const plain = (s: string) => !s.includes('\0') && !/[\uD800-\uDFFF]/u.test(s);

const text = fc
  .oneof(fc.string({ unit: 'grapheme', maxLength: 12 }), fc.constant(''), fc.string({ unit: 'binary', minLength: 300, maxLength: 2000 }))
  .filter(plain);

/** Any text, but not starting with a bracket, which OpenNURBS marks with a `^` on reading (feature ids start with a letter). */
const name = text.filter((s) => !/^[\s\u200b]*[()[\]{}]/.test(objectName(s)));

const randomMesh = fc
  .record({
    id: name,
    points: fc.array(
      fc.tuple(
        fc.double({ min: -5e6, max: 5e6, noNaN: true }),
        fc.double({ min: -5e6, max: 5e6, noNaN: true }),
        fc.double({ min: -1e3, max: 1e4, noNaN: true }),
      ),
      { minLength: 3, maxLength: 40 },
    ),
    strings: fc.dictionary(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 10 }).filter(plain), text, { maxKeys: 5, noNullPrototype: true }),
    seed: fc.nat(),
  })
  .map(({ id, points, strings, seed }): ExportMesh => {
    const n = points.length,
      indices = new Uint32Array(3 * (n - 2));
    for (let i = 0; i < n - 2; i++) indices.set([(seed + i) % n, (seed + i + 1) % n, (seed + i + 2) % n], 3 * i);
    return { id, kind: 'building', positions: new Float64Array(points.flat()), indices, descriptor: strings };
  });

const randomLine = fc
  .record({
    id: name,
    points: fc.array(fc.double({ min: -5e6, max: 5e6, noNaN: true }), { minLength: 6, maxLength: 60 }).filter((p) => p.length % 3 === 0),
    closed: fc.boolean(),
  })
  .map(
    ({ id, points, closed }): ExportPolyline => ({
      id,
      kind: 'centerline',
      points: new Float64Array(points),
      closed,
      descriptor: { type: 'asphalt', kind: 'centerline' },
    }),
  );

test('property: random meshes, polylines and user strings come back as written', () => {
  fc.assert(
    fc.property(fc.array(randomMesh, { minLength: 1, maxLength: 4 }), fc.array(randomLine, { maxLength: 3 }), (meshes, lines) => {
      const doc = read(scene(meshes, lines));
      const objects = doc.objects();
      assert.equal(objects.count, meshes.length + lines.length);
      for (let k = 0; k < objects.count; k++) {
        const o = objects.get(k),
          g = o.geometry() as any,
          a = o.attributes();
        if (k < meshes.length) {
          const m = meshes[k];
          assert.equal(a.name, objectName(m.id));
          assert.deepEqual(Object.fromEntries(a.getUserStrings() as unknown as [string, string][]), m.descriptor);
          const vertices = g.vertices(),
            faces = g.faces();
          assert.equal(vertices.count, m.positions.length / 3);
          for (let v = 0; v < vertices.count; v++) assert.deepEqual(vertices.point3dAt(v), [...m.positions.subarray(3 * v, 3 * v + 3)]);
          assert.equal(faces.count, m.indices.length / 3);
          for (let f = 0; f < faces.count; f++) assert.deepEqual(faces.get(f).slice(0, 3), [...m.indices.subarray(3 * f, 3 * f + 3)]);
          free(faces, vertices);
        } else {
          const l = lines[k - meshes.length],
            n = l.points.length / 3;
          assert.equal(a.name, objectName(l.id));
          assert.equal(g.pointCount, n + (l.closed ? 1 : 0));
          for (let i = 0; i < n; i++) assert.deepEqual(g.point(i), [...l.points.subarray(3 * i, 3 * i + 3)]);
          if (l.closed) assert.deepEqual(g.point(n), [...l.points.subarray(0, 3)]);
        }
        free(g, a, o);
      }
      free(objects, doc);
    }),
    { numRuns: 60 },
  );
});
