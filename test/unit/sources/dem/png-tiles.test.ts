import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import proj4 from 'proj4';
import sharp from 'sharp';
import { DEFAULT_DEM_PATH, createElevationSourceFromConfig } from '../../../../src/sources/dem/config.ts';
import { openHgt } from '../../../../src/sources/dem/hgt.ts';
import {
  PngPyramidSource,
  decodeElevationPixel,
  encodeElevationPixel,
  pyramidGeoref,
  type PngElevationEncoding,
} from '../../../../src/sources/dem/png-tiles.ts';

const Z = 12,
  TILE = 256;
const LON = 7.419,
  LAT = 43.7335;
const toMerc = proj4('EPSG:4326', 'EPSG:3857');
const [X0, Y0] = toMerc.forward([LON, LAT]);
/** The synthetic terrain: a plane in Web Mercator metres, so bilinear sampling reproduces it exactly. */
const plane = (x: number, y: number) => 120 + 0.004 * (x - X0) - 0.003 * (y - Y0);
const centreTile = {
  x: Math.floor(((LON + 180) / 360) * 2 ** Z),
  y: Math.floor(((1 - Math.log(Math.tan((LAT * Math.PI) / 180) + 1 / Math.cos((LAT * Math.PI) / 180)) / Math.PI) / 2) * 2 ** Z),
};

/** Writes the 3×3 tiles around the centre tile as PNGs encoding `plane` at pixel centres. */
async function writePyramid(root: string, encoding: PngElevationEncoding): Promise<void> {
  const g = pyramidGeoref(Z, TILE);
  for (let ty = centreTile.y - 1; ty <= centreTile.y + 1; ty++) {
    for (let tx = centreTile.x - 1; tx <= centreTile.x + 1; tx++) {
      const rgb = Buffer.alloc(TILE * TILE * 3);
      for (let r = 0; r < TILE; r++) {
        for (let c = 0; c < TILE; c++) {
          const x = g.x0 + (tx * TILE + c) * g.dx,
            y = g.y0 + (ty * TILE + r) * g.dy;
          rgb.set(encodeElevationPixel(encoding, plane(x, y)), (r * TILE + c) * 3);
        }
      }
      await mkdir(join(root, String(Z), String(tx)), { recursive: true });
      await sharp(rgb, { raw: { width: TILE, height: TILE, channels: 3 } })
        .png()
        .toFile(join(root, String(Z), String(tx), `${ty}.png`));
    }
  }
}

let dir = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dem-png-'));
  await writePyramid(join(dir, 'terrarium'), 'terrarium');
  await writePyramid(join(dir, 'rgb'), 'terrain-rgb');
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('pixel encodings', () => {
  test('Terrarium and Terrain-RGB round trip within their precision', () => {
    fc.assert(
      fc.property(fc.double({ min: -400, max: 8800, noNaN: true }), (h) => {
        assert.ok(Math.abs(decodeElevationPixel('terrarium', ...encodeElevationPixel('terrarium', h)) - h) <= 1 / 512 + 1e-9);
        assert.ok(Math.abs(decodeElevationPixel('terrain-rgb', ...encodeElevationPixel('terrain-rgb', h)) - h) <= 0.05 + 1e-9);
      }),
    );
    assert.equal(decodeElevationPixel('terrarium', 128, 0, 0), 0);
    assert.equal(decodeElevationPixel('terrain-rgb', 1, 134, 160), 0);
  });
});

describe('PNG tile pyramids', () => {
  for (const [encoding, folder, tolerance] of [
    ['terrarium', 'terrarium', 1 / 256],
    ['terrain-rgb', 'rgb', 0.05],
  ] as const) {
    test(`${encoding} tiles from a directory give back the written plane, across tile edges`, async () => {
      const src = new PngPyramidSource({ encoding, tiles: join(dir, folder), maxZoom: Z });
      const bbox = { west: LON - 0.03, east: LON + 0.03, south: LAT - 0.02, north: LAT + 0.02 };
      const window = await src.readWindow(bbox);
      fc.assert(
        fc.property(fc.double({ min: bbox.west, max: bbox.east, noNaN: true }), fc.double({ min: bbox.south, max: bbox.north, noNaN: true }), (lon, lat) => {
          const [x, y] = toMerc.forward([lon, lat]);
          const v = window.sample(lon, lat);
          assert.ok(Math.abs(v - plane(x, y)) <= tolerance + 1e-6, `${v} vs ${plane(x, y)}`);
        }),
        { numRuns: 200 },
      );
      assert.equal(window.attributions.length, 1);
    });
  }

  test('the zoom follows the wanted resolution, capped by maxZoom', () => {
    const src = new PngPyramidSource({ encoding: 'terrarium', tiles: dir, maxZoom: 15 });
    assert.equal(src.zoomFor(LAT, 30), 12); // 27.6 m pixels at z12 near Monaco
    assert.equal(src.zoomFor(LAT, 1), 15);
    assert.equal(src.zoomFor(LAT), 15);
    assert.ok(Math.abs(src.resolutionMetresAt(LAT, 12) - 27.6) < 0.1);
  });

  test('an URL template is fetched over HTTP; a missing tile falls through to the next source of a mosaic', async () => {
    const server: Server = createServer(async (req, res) => {
      try {
        const body = await readFile(join(dir, 'terrarium', ...(req.url ?? '').split('/').filter(Boolean)));
        res.writeHead(200, { 'content-type': 'image/png' }).end(body);
      } catch {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/{z}/{x}/{y}.png`;
      const mosaic = await createElevationSourceFromConfig([
        { kind: 'terrarium', tiles: url, maxZoom: Z, attribution: { id: 'synthetic', name: 'Synthetic' } },
        { kind: 'hgt', path: DEFAULT_DEM_PATH },
      ]);
      const [x, y] = toMerc.forward([LON, LAT]);
      assert.ok(Math.abs((await mosaic.sampleLonLat(LON, LAT)) - plane(x, y)) < 0.01, 'from the tiles');
      const hgt = await openHgt(DEFAULT_DEM_PATH);
      assert.equal(await mosaic.sampleLonLat(7.7, 43.9), await hgt.sampleLonLat(7.7, 43.9), 'no tile there: SRTM answers');
      assert.deepEqual(
        mosaic.attributions.map((a) => a.id),
        ['synthetic', 'srtm'],
      );
      const w = await mosaic.readWindow({ west: 7.7, east: 7.71, south: 43.9, north: 43.91 });
      assert.deepEqual(
        w.attributions.map((a) => a.id),
        ['srtm'],
        'a window credits only the sources that supplied data',
      );
      await hgt.close();
      await mosaic.close();
    } finally {
      await new Promise<void>((ok) => server.close(() => ok()));
    }
  });
});
