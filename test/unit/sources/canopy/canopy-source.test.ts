import assert from 'node:assert/strict';
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import proj4 from 'proj4';
import { loadConfig } from '../../../../src/config.ts';
import { detectTrees } from '../../../../src/geometry/canopy/index.ts';
import { resolveCrs } from '../../../../src/sources/dem/crs.ts';
import { createCanopySourceFromConfig } from '../../../../src/sources/canopy/config.ts';
import type { CanopyWindow } from '../../../../src/sources/canopy/types.ts';
import { isolatedTrees, renderChm } from '../../../support/generators/synthetic-chm.ts';
import { crop, writeChmTiff } from '../../../support/generators/canopy-tiff.ts';

let dir = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chm-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Lon/lat box of a CRS rectangle (corners; good enough for boxes well inside it). */
function lonLatBox(epsg: number, west: number, south: number, east: number, north: number) {
  const to = proj4(resolveCrs(epsg), 'EPSG:4326');
  const pts = [
    [west, south],
    [east, south],
    [east, north],
    [west, north],
  ].map((p) => to.forward(p) as [number, number]);
  return {
    west: Math.min(...pts.map((p) => p[0])),
    east: Math.max(...pts.map((p) => p[0])),
    south: Math.min(...pts.map((p) => p[1])),
    north: Math.max(...pts.map((p) => p[1])),
  };
}

const W = 200,
  H = 160;
const chm = renderChm(W, H, 1, isolatedTrees(W, H, 60, 5), { noise: 0.05, seed: 8 });
const UTM = { epsg: 32632, west: 372_000, north: 4_843_000, pixel: 1 };

describe('canopy rasters', () => {
  test('two files on one pixel grid read as one raster: windows cross the file edge, detection equals the whole grid', async () => {
    const tiles = join(dir, 'tiles');
    await mkdir(tiles);
    await writeChmTiff(join(tiles, 'a.tif'), crop(chm.data, W, 0, 0, 120, H), 120, H, UTM);
    await writeChmTiff(join(tiles, 'b.tif'), crop(chm.data, W, 120, 0, W, H), W - 120, H, { ...UTM, west: UTM.west + 120 });
    const source = (await createCanopySourceFromConfig([{ path: tiles, attribution: { name: 'Test CHM', license: 'CC BY 4.0' } }]))!;
    const windows = await source.readWindows(lonLatBox(32632, 372_000 - 50, 4_843_000 - H - 50, 372_000 + W + 50, 4_843_000 + 50));
    assert.equal(windows.length, 1);
    const w = windows[0];
    assert.deepEqual([w.width, w.height, w.cellSize], [W, H, 1]);
    assert.deepEqual([...w.data], [...chm.data]);
    const a = detectTrees({ ...w }).map((t) => [t.key, t.height, t.crownCells]);
    const b = detectTrees({ ...chm, col0: 0, row0: 0 }).map((t) => [t.key, t.height, t.crownCells]);
    assert.deepEqual(a, b);
    assert.deepEqual(
      w.attributions.map((x) => [x.name, x.license]),
      [['Test CHM', 'CC BY 4.0']],
    );
    // lattice positions map back to the CRS: cell (10, 20) is centred at (west + 10.5, north − 20.5)
    const [lon, lat] = w.lonLatOfLattice(w.col0 + 10, w.row0 + 20);
    const [x, y] = proj4('EPSG:4326', resolveCrs(32632), [lon, lat]);
    assert.ok(Math.abs(x - 372_010.5) < 1e-6 && Math.abs(y - 4_842_979.5) < 1e-6);
    assert.equal(w.valueAt(lon, lat), chm.data[20 * W + 10]);
    await source.close();
  });

  test('integer heights with a scale, GDAL nodata kept as no data (never filled)', async () => {
    const holed = chm.data.slice();
    for (let r = 40; r < 60; r++) for (let c = 40; c < 70; c++) holed[r * W + c] = NaN;
    const path = await writeChmTiff(join(dir, 'dm.tif'), holed, W, H, { ...UTM, uint16Scale: 0.1, nodata: 65535 });
    const source = (await createCanopySourceFromConfig([{ path, scale: 0.1 }]))!;
    const [w] = await source.readWindows(lonLatBox(32632, 372_000, 4_843_000 - H, 372_000 + W, 4_843_000));
    let worst = 0,
      holes = 0;
    for (let i = 0; i < holed.length; i++) {
      if (Number.isNaN(holed[i])) {
        assert.ok(Number.isNaN(w.data[i]));
        holes++;
        continue;
      }
      worst = Math.max(worst, Math.abs(w.data[i] - Math.max(0, holed[i])));
    }
    assert.equal(holes, 600);
    assert.ok(worst <= 0.05 + 1e-5, `decimetre rounding ${worst}`);
    await source.close();
  });

  for (const [epsg, name, west, north, pixelK] of [
    [3857, 'Web Mercator', 825_900, 5_423_000, 1 / Math.cos((43.73 * Math.PI) / 180)],
    [2056, 'Swiss LV95', 2_600_000, 1_200_000, 1],
    [25832, 'ETRS89 / UTM 32N', 372_000, 4_843_000, 1],
  ] as const) {
    test(`${name} (EPSG:${epsg}): cells measured on the ground, trees found where they stand`, async () => {
      // 1 m on the ground: Web Mercator pixels are 1/cos(lat) units wide
      const path = await writeChmTiff(join(dir, `e${epsg}.tif`), chm.data, W, H, { epsg, west, north, pixel: pixelK });
      const source = (await createCanopySourceFromConfig([{ path }]))!;
      const [w] = await source.readWindows(lonLatBox(epsg, west, north - H * pixelK, west + W * pixelK, north));
      assert.ok(Math.abs(w.cellSize - 1) < 0.01, `cell ${w.cellSize} m`);
      const found = detectTrees({ ...w });
      assert.equal(found.length, chm.trees.length);
      for (const t of chm.trees) {
        const f = found.find((d) => Math.hypot(d.col - t.x, d.row - t.y) < 1);
        assert.ok(f && Math.abs(f.crownDiameter / (2 * t.crownRadius) - 1) < 0.2, `tree at ${t.x}, ${t.y}`);
      }
      await source.close();
    });
  }

  test('rasters on different grids stay apart, the first listed first; a geographic raster is refused', async () => {
    const a = await writeChmTiff(join(dir, 'g1.tif'), chm.data, W, H, UTM);
    const b = await writeChmTiff(join(dir, 'g2.tif'), chm.data, W, H, { ...UTM, west: UTM.west + 0.5 });
    const source = (await createCanopySourceFromConfig([{ path: b }, { path: a }]))!;
    const windows: CanopyWindow[] = await source.readWindows(lonLatBox(32632, 372_010, 4_842_900, 372_100, 4_842_950));
    assert.equal(windows.length, 2);
    assert.ok(windows[0].latticeId.endsWith('g2.tif'));
    await source.close();
    const geo = join(dir, 'geo.tif');
    await writeChmTiff(geo, chm.data, W, H, { epsg: 4326, west: 7.4, north: 43.74, pixel: 1e-5 });
    await assert.rejects(createCanopySourceFromConfig([{ path: geo }]), /projected CRS/);
  });
});

test('detection tuned per source travels with its windows (features/instances/canopy.ts applies it)', async () => {
  const path = await writeChmTiff(join(dir, 'tuned.tif'), chm.data, W, H, UTM);
  const source = (await createCanopySourceFromConfig([{ path, detection: { windowSlope: 0.1, crownHeightShare: 0.6 } }]))!;
  assert.deepEqual(source.detections, [{ windowSlope: 0.1, crownHeightShare: 0.6 }]);
  const [w] = await source.readWindows(lonLatBox(32632, 372_000, 4_843_000 - H, 372_000 + W, 4_843_000));
  assert.deepEqual(w.detection, { windowSlope: 0.1, crownHeightShare: 0.6 });
  const plain = detectTrees({ ...w }),
    tuned = detectTrees({ ...w }, w.detection);
  assert.equal(tuned.length, plain.length);
  const byKey = new Map(plain.map((t) => [t.key, t.crownCells]));
  assert.ok(
    tuned.every((t) => t.crownCells <= byKey.get(t.key)!),
    'a higher crown base never gives a larger crown',
  );
  assert.ok(tuned.filter((t) => t.crownCells < byKey.get(t.key)!).length > tuned.length / 2, 'and most are smaller (small crowns end in a cliff)');
  await source.close();
  assert.throws(() => loadConfig({ CITY_CANOPY_SOURCES: JSON.stringify([{ path, detection: { crownHeightShare: 2 } }]) }));
});

test('CITY_CANOPY_SOURCES: a JSON array, validated at start; unset = none', () => {
  assert.equal(loadConfig({}).canopy, null);
  const c = loadConfig({ CITY_CANOPY_SOURCES: JSON.stringify([{ path: '/data/chm', scale: 0.01, attribution: { license: 'CC BY 4.0' } }]) }).canopy!;
  assert.deepEqual(c, [{ kind: 'geotiff', path: '/data/chm', scale: 0.01, attribution: { license: 'CC BY 4.0' } }]);
  assert.throws(() => loadConfig({ CITY_CANOPY_SOURCES: JSON.stringify([{ scale: 2 }]) }));
  assert.throws(() => loadConfig({ CITY_CANOPY_SOURCES: JSON.stringify([{ path: 'x', scale: -1 }]) }));
});

describe('over HTTP', () => {
  let server: Server,
    url = '',
    path = '',
    requests = 0;
  before(async () => {
    const big = renderChm(1000, 1000, 1, isolatedTrees(1000, 1000, 300, 3));
    path = await writeChmTiff(join(dir, 'remote.tif'), big.data, 1000, 1000, UTM);
    const size = (await stat(path)).size;
    server = createServer((req, res) => {
      const m = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
      if (!m) {
        res.writeHead(200, { 'content-length': size });
        createReadStream(path).pipe(res);
        return;
      }
      const start = Number(m[1]),
        end = Math.min(m[2] ? Number(m[2]) : size - 1, size - 1);
      requests++;
      res.writeHead(206, { 'content-range': `bytes ${start}-${end}/${size}`, 'content-length': end - start + 1 });
      createReadStream(path, { start, end }).pipe(res);
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/remote.tif`;
  });
  after(() => new Promise<void>((ok) => server.close(() => ok())));

  // geotiff's writer makes one strip, so this file has one block; that only the touched blocks of a
  // tiled COG are fetched is the shared reader's property, tested in dem-geotiff.test.ts
  test('a remote GeoTIFF is read with Range requests and gives the same window as the local file', async () => {
    const box = lonLatBox(32632, 372_100, 4_842_800, 372_150, 4_842_850);
    const remote = (await createCanopySourceFromConfig([{ path: url }]))!;
    const local = (await createCanopySourceFromConfig([{ path }]))!;
    const [[r], [l]] = await Promise.all([remote.readWindows(box), local.readWindows(box)]);
    assert.ok(r.width < 70 && r.height < 120, `${r.width} × ${r.height}`);
    assert.deepEqual([r.col0, r.row0, r.width, r.height], [l.col0, l.row0, l.width, l.height]);
    assert.deepEqual([...r.data], [...l.data]);
    assert.ok(requests > 0, 'range requests');
    await Promise.all([remote.close(), local.close()]);
  });
});
