import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { ByteLru, type CachedBlock } from '../../../../src/sources/dem/byte-lru.ts';
import { DEFAULT_DEM_PATH, createElevationSourceFromConfig } from '../../../../src/sources/dem/config.ts';
import { HgtReader, hgtSizeFromBytes, openHgt, parseHgtName } from '../../../../src/sources/dem/hgt.ts';
import { RasterElevationSource } from '../../../../src/sources/dem/raster-source.ts';
import { GDAL_REFERENCE } from '../../../fixtures/dem/gdal-reference.ts';

/** Writes a square .hgt (big-endian int16) whose sample (col, row) is value(col, row). */
async function writeHgt(dir: string, name: string, size: number, value: (col: number, row: number) => number): Promise<string> {
  const buf = Buffer.alloc(size * size * 2);
  for (let r = 0; r < size; r++) for (let c = 0; c < size; c++) buf.writeInt16BE(value(c, r), (r * size + c) * 2);
  const path = join(dir, name);
  await writeFile(path, buf);
  return path;
}

let dir = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dem-hgt-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('hgt naming and size', () => {
  test('the name gives the south-west corner', () => {
    assert.deepEqual(parseHgtName('/x/N43E007.hgt'), { lat: 43, lon: 7 });
    assert.deepEqual(parseHgtName('S12W077.hgt'), { lat: -12, lon: -77 });
    assert.deepEqual(parseHgtName('n05e100.SRTMGL1.hgt'), { lat: 5, lon: 100 });
    assert.equal(parseHgtName('monaco.hgt'), null);
  });

  test('size follows from the file length (SRTM1 and SRTM3)', () => {
    assert.equal(hgtSizeFromBytes(1201 * 1201 * 2), 1201);
    assert.equal(hgtSizeFromBytes(3601 * 3601 * 2), 3601);
    assert.throws(() => hgtSizeFromBytes(1000));
  });
});

describe('synthetic .hgt round trip', () => {
  // 41 samples per degree side: a coarse "arc-second" grid; a plane is reproduced exactly by bilinear sampling.
  const size = 41;
  const plane = (c: number, r: number) => 100 + 3 * c - 2 * r;

  test('samples at pixel centres and between them return the written plane', async () => {
    const src = await openHgt(await writeHgt(dir, 'N10E020.hgt', size, plane));
    const step = 1 / (size - 1);
    assert.equal(await src.sampleLonLat(20, 11), plane(0, 0)); // north-west corner sample
    assert.equal(await src.sampleLonLat(21, 10), plane(size - 1, size - 1)); // south-east corner
    const window = await src.readWindow({ west: 20, south: 10, east: 21, north: 11 });
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (u, v) => {
        const lon = 20 + u,
          lat = 10 + v;
        const expected = 100 + 3 * (u / step) - 2 * ((1 - v) / step);
        assert.ok(Math.abs(window.sample(lon, lat) - expected) < 1e-6);
      }),
    );
    assert.ok(Number.isNaN(window.sample(21.5, 10.5)), 'outside the tile is not covered');
    await src.close();
  });

  test("voids (-32768) are filled from their neighbours: finite, within the neighbours' range, close to the plane", async () => {
    const holes = new Set(['5,5', '20,20', '21,20', '20,21', '21,21', '22,21', '21,22', '0,0', '40,40']);
    const path = await writeHgt(dir, 'N11E020.hgt', size, (c, r) => (holes.has(`${c},${r}`) ? -32768 : plane(c, r)));
    const src = await openHgt(path);
    const step = 1 / (size - 1);
    for (const key of holes) {
      const [c, r] = key.split(',').map(Number);
      const v = await src.sampleLonLat(20 + c * step, 12 - r * step);
      assert.ok(Number.isFinite(v), `void ${key} filled`);
      assert.ok(v > -1000, 'no -32768 spike');
      // The plane's range over the 3×3 neighbourhood bounds any neighbour average.
      assert.ok(Math.abs(v - plane(c, r)) <= 2 * 5, `void ${key}: ${v} vs ${plane(c, r)}`);
    }
    await src.close();
  });

  test('a window reads only the rows it needs', async () => {
    const path = await writeHgt(dir, 'N12E020.hgt', 1201, (c, r) => (c + r) % 1000);
    const src = await openHgt(path);
    const reader = src.reader as HgtReader;
    // About a 500 m tile: 12 rows, inside one or two bands of 48 rows.
    await src.readWindow({ west: 20.5, east: 20.505, south: 12.5, north: 12.505 });
    assert.ok(reader.bytesRead > 0 && reader.bytesRead <= 2 * 48 * 1201 * 2, `read ${reader.bytesRead} of ${1201 * 1201 * 2} bytes`);
    await src.close();
  });

  test('neighbouring tiles stitch across their shared edge (mosaic from a directory)', async () => {
    const sub = await mkdtemp(join(dir, 'mosaic-'));
    // A plane in degrees, continuous across lon 31: tiles share the column on lon 31 (SRTM convention).
    const h = (lon: number, lat: number) => Math.round(200 + 400 * (lon - 30) - 300 * (lat - 40));
    const step = 1 / (size - 1);
    await writeHgt(sub, 'N40E030.hgt', size, (c, r) => h(30 + c * step, 41 - r * step));
    await writeHgt(sub, 'N40E031.hgt', size, (c, r) => h(31 + c * step, 41 - r * step));
    const mosaic = await createElevationSourceFromConfig([{ kind: 'hgt', path: sub }]);
    const window = await mosaic.readWindow({ west: 30.9, east: 31.1, south: 40.4, north: 40.6 });
    for (let k = 0; k <= 40; k++) {
      const lon = 30.9 + (0.2 * k) / 40,
        lat = 40.5 + 0.003 * k;
      assert.ok(Math.abs(window.sample(lon, lat) - (200 + 400 * (lon - 30) - 300 * (lat - 40))) < 0.5, `at ${lon}`);
    }
    assert.equal(mosaic.attributions.length, 1, 'one SRTM credit line for both tiles');
    await mosaic.close();
  });
});

describe('the bundled SRTM tile (data/dem/N43E007.hgt)', () => {
  test('is the default source, found from the repository root whatever the working directory', async () => {
    const cwd = process.cwd();
    process.chdir(tmpdir());
    try {
      const src = await createElevationSourceFromConfig();
      assert.equal(src.id, `hgt:${DEFAULT_DEM_PATH}`);
      assert.deepEqual(src.attribution, {
        id: 'srtm',
        name: 'SRTM',
        text: 'SRTM elevation data courtesy of NASA/USGS',
        license: 'Public domain',
        url: src.attribution.url,
        required: false,
      });
      assert.ok(Math.abs(src.resolutionDegrees - 1 / 1200) < 1e-12);
      assert.ok(Math.abs(src.resolutionMetresAt(43.73) - 66.9) < 0.5, `${src.resolutionMetresAt(43.73)}`);
      await src.close();
    } finally {
      process.chdir(cwd);
    }
  });

  test('bilinear samples near Monaco match GDAL within 1 cm', async () => {
    const src = await openHgt(DEFAULT_DEM_PATH);
    for (const p of GDAL_REFERENCE) {
      const v = await src.sampleLonLat(p.lon, p.lat);
      assert.ok(Math.abs(v - p.bilinear) < 0.01, `${p.lon},${p.lat}: ${v} vs GDAL ${p.bilinear}`);
    }
    await src.close();
  });

  test("the void at 43.7558 N 7.4425 E is filled within its neighbours' range", async () => {
    const raw = await readFile(DEFAULT_DEM_PATH);
    const at = (c: number, r: number) => raw.readInt16BE((r * 1201 + c) * 2);
    const col = 531,
      row = 293; // lon 7 + 531/1200 = 7.4425, lat 44 − 293/1200 = 43.75583
    assert.equal(at(col, row), -32768, 'the fixture still has its void');
    const neighbours = [-1, 0, 1].flatMap((dr) => [-1, 0, 1].map((dc) => at(col + dc, row + dr))).filter((v) => v !== -32768);
    const src = await openHgt(DEFAULT_DEM_PATH);
    const v = await src.sampleLonLat(7 + col / 1200, 44 - row / 1200);
    assert.ok(v >= Math.min(...neighbours) && v <= Math.max(...neighbours), `${v} within [${Math.min(...neighbours)}, ${Math.max(...neighbours)}]`);
    await src.close();
  });

  test('no void or spike anywhere over Monaco', async () => {
    const src = await openHgt(DEFAULT_DEM_PATH);
    const window = await src.readWindow({ west: 7.38, east: 7.46, south: 43.71, north: 43.77 });
    for (let i = 0; i <= 80; i++) {
      for (let j = 0; j <= 60; j++) {
        const v = window.sample(7.38 + i * 0.001, 43.71 + j * 0.001);
        assert.ok(Number.isFinite(v) && v > -20 && v < 1200, `${v} at ${i},${j}`);
      }
    }
    await src.close();
  });
});

describe('block cache', () => {
  test('evicts least recently used entries beyond its byte budget and shares concurrent loads', async () => {
    const cache = new ByteLru<CachedBlock>(3 * 400, (b) => (b ? b.byteLength : 0));
    let loads = 0;
    const load = () => {
      loads++;
      return Promise.resolve(new Float32Array(100));
    };
    const [a, b] = await Promise.all([cache.get('a', load), cache.get('a', load)]);
    assert.equal(a, b);
    assert.equal(loads, 1);
    await cache.get('b', load);
    await cache.get('c', load);
    await cache.get('a', load); // refresh a
    await cache.get('d', load); // evicts b, the least recently used
    await Promise.resolve();
    assert.ok(cache.bytes <= 1200);
    const before = loads;
    await cache.get('a', load);
    assert.equal(loads, before, 'a stayed');
    await cache.get('b', load);
    assert.equal(loads, before + 1, 'b was evicted');
  });

  test('a second window over the same blocks reads nothing from disk', async () => {
    const reader = new HgtReader(DEFAULT_DEM_PATH, (await openHgt(DEFAULT_DEM_PATH)).reader.georef);
    const cache = new ByteLru<CachedBlock>(1 << 24, (b) => (b ? b.byteLength : 0));
    const src = new RasterElevationSource(reader, { attribution: (await openHgt(DEFAULT_DEM_PATH)).attribution, cache });
    const bbox = { west: 7.41, east: 7.42, south: 43.73, north: 43.74 };
    await src.readWindow(bbox);
    const first = reader.bytesRead;
    // Two 48-row bands, plus the band above or below when one holds a void (the void at 43.73 N 7.4025 E
    // is filled from 32 rows of context).
    assert.ok(first > 0 && first <= 3 * 48 * 1201 * 2, `read ${first} bytes`);
    await src.readWindow(bbox);
    assert.equal(reader.bytesRead, first);
    await src.close();
  });
});
