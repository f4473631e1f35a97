/**
 * OBJ, STL, PLY, DAE and DXF exports through the real HTTP app, worker pool and Monaco store: a
 * known OSM building corner, read back from each file by our test readers (python zipfile, ezdxf,
 * plain parsing of the formats' own layouts), lands where proj4 puts it — to 1 mm — over
 * placements, CRSs and units (STL, float32, refuses absolute grid coordinates: a 400). The full placement × crs × units
 * matrix runs on glb (e2e-export.test.ts) through the same scene; the writers are unit-agnostic,
 * so four mixed combinations per format cover them here.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { METRES_PER_UNIT, type ExportUnits } from '../../src/export/scene.ts';
import type { RunningService } from '../../src/service.ts';
import { meshFileVertices } from '../support/checks/export-corners.ts';
import { postContext } from '../support/service/http.ts';
import { cornerIn, ORIGIN, POLYGON, startExportApp, type ExportApp } from '../support/service/export-app.ts';
import { MemoryExportStore } from '../support/stores/memory-export-store.ts';

const COMBOS: { crs: string; placement: 'anchor' | 'absolute'; units: ExportUnits }[] = [
  { crs: 'local', placement: 'anchor', units: 'mm' },
  { crs: 'EPSG:2154', placement: 'anchor', units: 'in' },
  { crs: 'EPSG:32632', placement: 'absolute', units: 'ft' },
  { crs: 'EPSG:3857', placement: 'absolute', units: 'm' },
];

let svc: RunningService;
let url: string;
let app: ExportApp;
const store = new MemoryExportStore();

before(async () => {
  app = await startExportApp({ store });
  ({ svc, url } = app);
});
after(async () => {
  await app?.close();
});

test('a known OSM building corner lands where proj4 puts it in OBJ, STL, PLY, DAE and DXF exports (to 1 mm; STL refuses absolute grid coordinates)', async () => {
  const account = await svc.accounts.createAccount({ name: `files${Math.random()}`, balanceKm2: 100, active: true });
  const key = (await svc.accounts.createKey(account.id, 'development')).key;
  for (const format of ['obj', 'stl', 'ply', 'dae', 'dxf']) {
    for (const { crs, placement, units } of COMBOS) {
      const a = await postContext(url, key, {
        polygon: POLYGON,
        origin: ORIGIN,
        settings: { geometry: ['buildings'] },
        export: { format, crs, placement, units },
      });
      if (format === 'stl' && placement === 'absolute' && crs !== 'local') {
        assert.equal(a.status, 400, `float32 cannot hold ${crs} grid coordinates: ${a.text}`);
        assert.match(a.json.error, /^STL stores coordinates as float32/);
        continue;
      }
      assert.equal(a.status, 200, a.text);
      const { xyz, note } = meshFileVertices(format, store.bytesOf(a.json.downloadUrl)!);
      const [wantE, wantN] = cornerIn(crs);
      // Anchor: the file's own note says where (0, 0, 0) lies in the grid (local's is 0, 0).
      let base = [0, 0];
      if (placement === 'anchor' && crs !== 'local') {
        const m = /grid E (-?[\d.]+), N (-?[\d.]+)/.exec(note) ?? /E0=(-?[\d.]+) N0=(-?[\d.]+)/.exec(note);
        assert.ok(m, `${format}: the origin's grid position in the file`);
        base = [Number(m[1]), Number(m[2])];
      }
      const k = METRES_PER_UNIT[units];
      let best = Infinity;
      for (let i = 0; i < xyz.length; i += 3) {
        best = Math.min(best, Math.hypot((base[0] + xyz[i]) * k - wantE, (base[1] + xyz[i + 1]) * k - wantN, xyz[i + 2] * k));
      }
      // STL anchored: float32 of a coordinate within a few hundred metres of the origin
      const tolerance = format === 'stl' ? 1e-3 + 5e-5 : 1e-3;
      assert.ok(best < tolerance, `${format} ${crs} ${placement} ${units}: corner off by ${(best * 1000).toFixed(2)} mm`);
    }
  }
});
