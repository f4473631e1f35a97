import assert from 'node:assert/strict';
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { writeArrayBuffer, type GeotiffWriterMetadata } from 'geotiff';
import proj4 from 'proj4';
import { DEFAULT_DEM_PATH, createElevationSourceFromConfig } from '../../../../src/sources/dem/config.ts';
import { epsgDefinition, resolveCrs } from '../../../../src/sources/dem/crs.ts';
import { type GeoTiffReader, openGeoTiff } from '../../../../src/sources/dem/geotiff-source.ts';
import { openHgt } from '../../../../src/sources/dem/hgt.ts';
import { GDAL_REFERENCE } from '../../../fixtures/dem/gdal-reference.ts';

const TIF = DEFAULT_DEM_PATH.replace(/\.hgt$/, '.tif');

let dir = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dem-tif-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Writes a single-band Float32 GeoTIFF (geotiff's writer; its Int16 path is broken, Float32 is not). */
async function writeTif(
  name: string,
  width: number,
  height: number,
  value: (c: number, r: number) => number,
  metadata: GeotiffWriterMetadata,
): Promise<string> {
  const values = new Float32Array(width * height);
  for (let r = 0; r < height; r++) for (let c = 0; c < width; c++) values[r * width + c] = value(c, r);
  const path = join(dir, name);
  await writeFile(path, Buffer.from(writeArrayBuffer(values, { width, height, ...metadata })));
  return path;
}

describe('CRS resolution (EPSG registry)', () => {
  test('EPSG codes, UTM zones and proj4 strings resolve; unknown codes say what to do', () => {
    assert.match(resolveCrs('EPSG:4326'), /longlat/);
    assert.match(resolveCrs(32632), /^\+proj=utm \+zone=32 \+datum=WGS84 \+units=m/);
    assert.match(resolveCrs('EPSG:2056'), /\+proj=somerc/); // Swiss LV95, from the registry
    assert.match(resolveCrs('EPSG:32733'), /\+zone=33 \+south/);
    assert.match(epsgDefinition(25832)!, /\+zone=32 \+ellps=GRS80/);
    assert.equal(resolveCrs('+proj=longlat +datum=WGS84'), '+proj=longlat +datum=WGS84');
    assert.throws(() => resolveCrs('EPSG:999999'), /proj4 string/);
    // The registry's UTM definition agrees with proj4's own +proj=utm at Monaco.
    const [e, n] = proj4('EPSG:4326', resolveCrs(32632), [7.419, 43.7335]);
    assert.ok(Math.abs(e - 372_000) < 2_000 && Math.abs(n - 4_843_000) < 2_000, `${e} ${n}`);
  });
});

describe('synthetic GeoTIFF round trip', () => {
  const w = 20,
    h = 16;
  const plane = (c: number, r: number) => 50 + 2.5 * c - 1.5 * r;

  test('pixel-is-area: pixel (c, r) is centred half a pixel inside the tie point', async () => {
    const path = await writeTif('area.tif', w, h, plane, {
      ModelPixelScale: [0.01, 0.01, 0],
      ModelTiepoint: [0, 0, 0, 10, 50, 0],
      GTRasterTypeGeoKey: 1,
      GeographicTypeGeoKey: 4326,
      GTModelTypeGeoKey: 2,
    });
    const src = await openGeoTiff(path);
    assert.deepEqual([src.bounds.west, src.bounds.north], [10, 50]);
    assert.ok(Math.abs(src.bounds.east - 10.2) < 1e-12 && Math.abs(src.bounds.south - 49.84) < 1e-12);
    for (const [c, r] of [
      [0, 0],
      [3, 7],
      [19, 15],
    ]) {
      assert.ok(Math.abs((await src.sampleLonLat(10 + (c + 0.5) * 0.01, 50 - (r + 0.5) * 0.01)) - plane(c, r)) < 1e-9);
    }
    await src.close();
  });

  test('pixel-is-point: pixel (c, r) is centred on the tie point plus (c, r) steps', async () => {
    const path = await writeTif('point.tif', w, h, plane, {
      ModelPixelScale: [0.01, 0.01, 0],
      ModelTiepoint: [0, 0, 0, 10, 50, 0],
      GTRasterTypeGeoKey: 2,
      GeographicTypeGeoKey: 4326,
      GTModelTypeGeoKey: 2,
    });
    const src = await openGeoTiff(path);
    const window = await src.readWindow(src.bounds);
    fc.assert(
      fc.property(fc.double({ min: 0, max: w - 1, noNaN: true }), fc.double({ min: 0, max: h - 1, noNaN: true }), (fcol, frow) => {
        const v = window.sample(10 + fcol * 0.01, 50 - frow * 0.01);
        assert.ok(Math.abs(v - (50 + 2.5 * fcol - 1.5 * frow)) < 1e-6);
      }),
    );
    await src.close();
  });

  test('a projected CRS (UTM 32N) is read through proj4', async () => {
    const e0 = 372_000,
      n0 = 4_845_000,
      step = 30;
    const path = await writeTif('utm.tif', 40, 40, (c, r) => 0.01 * c * step + 0.02 * r * step, {
      ModelPixelScale: [step, step, 0],
      ModelTiepoint: [0, 0, 0, e0, n0, 0],
      ProjectedCSTypeGeoKey: 32632,
      GTModelTypeGeoKey: 1,
    });
    const src = await openGeoTiff(path);
    assert.equal(src.resolutionMetres, 30);
    const toUtm = proj4('EPSG:4326', resolveCrs(32632));
    const window = await src.readWindow(src.bounds);
    for (const [e, n] of [
      [e0 + 100, n0 - 200],
      [e0 + 615.5, n0 - 1000.25],
      [e0 + 1150, n0 - 20],
    ]) {
      const [lon, lat] = toUtm.inverse([e, n]);
      const expected = 0.01 * (e - e0 - step / 2) + 0.02 * (n0 - step / 2 - n); // pixel-is-area by default
      assert.ok(Math.abs(window.sample(lon, lat) - expected) < 1e-3, `${window.sample(lon, lat)} vs ${expected}`);
    }
    await src.close();
  });

  test('GDAL_NODATA cells are filled from their neighbours', async () => {
    const holes = new Set(['4,4', '5,4', '4,5', '5,5', '10,2']);
    const path = await writeTif('nodata.tif', w, h, (c, r) => (holes.has(`${c},${r}`) ? -9999 : plane(c, r)), {
      ModelPixelScale: [0.01, 0.01, 0],
      ModelTiepoint: [0, 0, 0, 10, 50, 0],
      GTRasterTypeGeoKey: 2,
      GeographicTypeGeoKey: 4326,
      GTModelTypeGeoKey: 2,
      GDAL_NODATA: '-9999',
    });
    const src = await openGeoTiff(path);
    for (const key of holes) {
      const [c, r] = key.split(',').map(Number);
      const v = await src.sampleLonLat(10 + c * 0.01, 50 - r * 0.01);
      assert.ok(Number.isFinite(v) && Math.abs(v - plane(c, r)) < 5, `${key}: ${v}`);
    }
    await src.close();
  });

  test('a file without a known CRS asks for one; the config can supply it', async () => {
    const path = await writeTif('userdefined.tif', 4, 4, () => 1, {
      ModelPixelScale: [1, 1, 0],
      ModelTiepoint: [0, 0, 0, 0, 0, 0],
      ProjectedCSTypeGeoKey: 32767,
      GTModelTypeGeoKey: 1,
    });
    await assert.rejects(openGeoTiff(path), /configure its CRS/);
    const src = await createElevationSourceFromConfig([{ kind: 'geotiff', path, crs: 'EPSG:3857' }]);
    assert.equal(await src.sampleLonLat(0.00001, -0.00001), 1);
    await src.close();
  });
});

describe('the bundled COG (data/dem/N43E007.tif)', () => {
  test('bilinear samples near Monaco match GDAL within 1 cm', async () => {
    const src = await openGeoTiff(TIF);
    for (const p of GDAL_REFERENCE) {
      const v = await src.sampleLonLat(p.lon, p.lat);
      assert.ok(Math.abs(v - p.bilinear) < 0.01, `${p.lon},${p.lat}: ${v} vs GDAL ${p.bilinear}`);
    }
    await src.close();
  });

  test('.hgt and .tif of the tile agree (exactly where no void is near)', async () => {
    const tif = await openGeoTiff(TIF),
      hgt = await openHgt(DEFAULT_DEM_PATH);
    const raw = await readFile(DEFAULT_DEM_PATH);
    const isVoid = (c: number, r: number) => raw.readInt16BE((r * 1201 + c) * 2) === -32768;
    const bbox = { west: 7.38, east: 7.46, south: 43.71, north: 43.77 };
    const [wt, wh] = await Promise.all([tif.readWindow(bbox), hgt.readWindow(bbox)]);
    let compared = 0;
    fc.assert(
      fc.property(fc.double({ min: bbox.west, max: bbox.east, noNaN: true }), fc.double({ min: bbox.south, max: bbox.north, noNaN: true }), (lon, lat) => {
        const c = Math.floor((lon - 7) * 1200),
          r = Math.floor((44 - lat) * 1200);
        const a = wt.sample(lon, lat),
          b = wh.sample(lon, lat);
        assert.ok(Number.isFinite(a) && Number.isFinite(b));
        if ([0, 1].some((dr) => [0, 1].some((dc) => isVoid(c + dc, r + dr)))) return;
        compared++;
        assert.ok(Math.abs(a - b) < 1e-9, `${lon},${lat}: tif ${a} hgt ${b}`);
      }),
      { numRuns: 300 },
    );
    assert.ok(compared > 250);
    await tif.close();
    await hgt.close();
  });

  test('a window decodes only the COG tiles it touches', async () => {
    const src = await openGeoTiff(TIF);
    const reader = src.reader as GeoTiffReader;
    assert.deepEqual([reader.blockWidth, reader.blockHeight], [256, 256]);
    const window = await src.readWindow({ west: 7.41, east: 7.42, south: 43.73, north: 43.74 });
    assert.ok(window.byteSize < 40 * 40 * 4, `window of ${window.byteSize} bytes`);
    await src.close();
  });
});

describe('COG over HTTP with range requests', () => {
  let server: Server;
  let url = '';
  let bytesServed = 0;
  let rangeRequests = 0;

  before(async () => {
    const size = (await stat(TIF)).size;
    server = createServer((req, res) => {
      const m = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
      if (!m) {
        res.writeHead(200, { 'content-length': size, 'accept-ranges': 'bytes' });
        bytesServed += size;
        createReadStream(TIF).pipe(res);
        return;
      }
      const start = Number(m[1]),
        end = Math.min(m[2] ? Number(m[2]) : size - 1, size - 1);
      rangeRequests++;
      bytesServed += end - start + 1;
      res.writeHead(206, { 'content-range': `bytes ${start}-${end}/${size}`, 'content-length': end - start + 1, 'content-type': 'image/tiff' });
      createReadStream(TIF, { start, end }).pipe(res);
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/N43E007.tif`;
  });
  after(() => new Promise<void>((ok) => server.close(() => ok())));

  test('gives the same samples as the local file and transfers less than the file', async (t) => {
    const size = (await stat(TIF)).size;
    const started = performance.now();
    const remote = await createElevationSourceFromConfig([{ kind: 'geotiff', path: url }]);
    const opened = performance.now();
    const local = await openGeoTiff(TIF);
    const bbox = { west: 7.412, east: 7.426, south: 43.728, north: 43.739 }; // ~1.1 km × 1.2 km around the test point
    const w0 = performance.now();
    const remoteWindow = await remote.readWindow(bbox);
    const w1 = performance.now();
    const localWindow = await local.readWindow(bbox);
    for (let k = 0; k <= 20; k++) {
      const lon = bbox.west + ((bbox.east - bbox.west) * k) / 20,
        lat = bbox.south + ((bbox.north - bbox.south) * (20 - k)) / 20;
      assert.equal(remoteWindow.sample(lon, lat), localWindow.sample(lon, lat));
    }
    for (const p of GDAL_REFERENCE.slice(0, 1)) assert.ok(Math.abs(remoteWindow.sample(p.lon, p.lat) - p.bilinear) < 0.01);
    assert.ok(rangeRequests > 0, 'used Range requests');
    assert.ok(bytesServed < size / 2, `served ${bytesServed} of ${size} bytes`);
    const stats = (remote as { reader?: GeoTiffReader }).reader?.stats;
    assert.ok(stats && stats.bytesReceived === bytesServed, 'the client counts what the server sent');
    t.diagnostic(
      `HTTP COG: open ${(opened - started).toFixed(1)} ms, window ${(w1 - w0).toFixed(1)} ms, ${rangeRequests} range requests, ${bytesServed} of ${size} bytes`,
    );
    await remote.close();
    await local.close();
  });
});
