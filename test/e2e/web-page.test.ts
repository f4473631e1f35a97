/**
 * The web page in a real browser (Debian chromium, software WebGL) against the service started
 * here: it loads with nothing from outside 127.0.0.1, a rectangle drawn on the map through clicks
 * gives the model the API gives for the same polygon (counted from the scene), a group toggle
 * changes the counts, a click on a building shows its id, an export downloads a GLB the Khronos
 * validator accepts, and an invalid polygon shows the API's own message. Each run saves a
 * screenshot in out/web-page/ (git-ignored) and checks its pixels.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { request } from 'undici';
import { REPO_ROOT } from '../../src/config.ts';
import type { RunningService } from '../../src/service.ts';
import { openPage, type BrowserPage } from '../support/browser.ts';
import { problems, validateGltf } from '../support/checks/gltf-validate.ts';
import { postContext, startTestService } from '../support/service/http.ts';

// the callbacks below run in the page, where these exist
declare const window: any;
declare const document: any;

let svc: RunningService;
let web: BrowserPage;
const SHOTS = join(REPO_ROOT, 'out/web-page');

before(async () => {
  // the page as `npm run build` bundles it (dist/web), which the service serves
  execFileSync(process.execPath, [join(REPO_ROOT, 'scripts/build/bundle-web.mjs')], { stdio: 'inherit' });
  svc = await startTestService();
  web = await openPage(svc.url);
  await web.page.goto(`${svc.url}/`);
  await web.page.waitForFunction(() => document.body.dataset.ready === 'true', null, { timeout: 60_000 });
});
after(async () => {
  await web?.close();
  await svc?.close();
});

/** Clicks the map at [lon, lat] points, through the map's own projection. */
async function clickMap(points: [number, number][]): Promise<void> {
  for (const p of points) {
    const xy = await web.page.evaluate(([lon, lat]) => {
      const map = window.cityContextViewer.map;
      const r = map.getContainer().getBoundingClientRect();
      const q = map.project([lon, lat]);
      return { x: r.left + q.x, y: r.top + q.y };
    }, p);
    await web.page.mouse.click(xy.x, xy.y);
  }
}

type Stats = { meshes: number; triangles: number; groups: Record<string, { meshes: number; triangles: number; nodes: number }> };
const stats = () => web.page.evaluate(() => window.cityContextViewer.stats()) as Promise<Stats>;

/** Per group, the counts the API's answer holds. */
function answerCounts(json: any): Record<string, { meshes: number; triangles: number; nodes: number }> {
  const out: Record<string, { meshes: number; triangles: number; nodes: number }> = {};
  for (const g of json.geometry) {
    const c = (out[g.type] ??= { meshes: 0, triangles: 0, nodes: 0 });
    for (const m of g.meshes ?? []) {
      c.meshes++;
      c.triangles += (m.indices ? m.indices.length : m.vertices.length / 3) / 3;
    }
    c.nodes += (g.nodes ?? []).length;
  }
  return out;
}

test('the page, its script and the map load from the service alone; the demo key is filled in for this machine', async () => {
  assert.deepEqual(web.outside, []);
  assert.deepEqual(web.errors, []);
  assert.equal(await web.page.inputValue('#api-key'), svc.demo!.key);
  // the map drew the service's own tiles
  const tiles = await web.page.evaluate(() => window.cityContextViewer.map.querySourceFeatures('osm', { sourceLayer: 'roads' }).length);
  assert.ok(tiles > 0, 'road features from /v1/map tiles');
  const res = await request(`${svc.url}/v1/demo-key`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
  await res.body.dump();
  assert.equal(res.statusCode, 404, 'a request through a proxy never gets the demo key');
});

test('a rectangle drawn on the map previews the model the API answers for that polygon; toggles, picking, screenshot', async (t) => {
  await web.page.click('#draw-rectangle');
  await clickMap([
    [7.4175, 43.7325],
    [7.4225, 43.7365],
  ]);
  assert.match((await web.page.textContent('#area-info')) ?? '', /Area 0\.\d+ km² · cost 0\.\d+ km²/);
  const t0 = performance.now();
  await web.page.click('#generate');
  await web.page.waitForFunction(() => /meshes, \d+ triangles/.test(document.getElementById('status').textContent ?? ''), null, { timeout: 120_000 });
  const seconds = (performance.now() - t0) / 1000;
  t.diagnostic(`click to model shown ${seconds.toFixed(2)} s (${await web.page.textContent('#status')})`);

  const body = await web.page.evaluate(() => window.cityContextViewer.request());
  assert.ok(body);
  const answer = await postContext(svc.url, svc.demo!.key, body);
  assert.equal(answer.status, 200, answer.text.slice(0, 300));
  const expected = answerCounts(answer.json);
  const shown = await stats();
  assert.deepEqual(shown.groups, expected);
  assert.ok(shown.groups.buildings.meshes > 50 && shown.groups.surface.meshes > 50 && shown.groups.instances.nodes > 10, JSON.stringify(shown.groups));
  assert.equal(
    shown.triangles,
    Object.values(expected).reduce((s, g) => s + g.triangles, 0),
  );

  // the credit line is on screen
  assert.match((await web.page.textContent('#credits')) ?? '', /OpenStreetMap/);

  // a group toggle takes its meshes out of the scene and back
  await web.page.click('#groups input[data-group="buildings"]');
  const without = await stats();
  assert.deepEqual(without.groups.buildings, { meshes: 0, triangles: 0, nodes: 0 });
  assert.equal(without.meshes, shown.meshes - shown.groups.buildings.meshes);
  await web.page.click('#groups input[data-group="buildings"]');
  assert.deepEqual(await stats(), shown);

  // a click on a building (its roof, seen from above) shows its descriptor with its id
  const buildings = answer.json.geometry.find((g: any) => g.type === 'buildings').meshes as { descriptor: { id: string; height?: number } }[];
  const tallest = [...buildings].sort((a, b) => (b.descriptor.height ?? 0) - (a.descriptor.height ?? 0)).slice(0, 5);
  const picked: string[] = [];
  for (const b of tallest) {
    const at = await web.page.evaluate((id) => window.cityContextViewer.screenPointOf(id), b.descriptor.id);
    if (!at) continue;
    const box = (await web.page.locator('#viewer-canvas canvas').boundingBox())!;
    await web.page.mouse.click(box.x + at.x, box.y + at.y);
    const id = await web.page.getAttribute('#descriptor td[data-feature-id]', 'data-feature-id');
    picked.push(`${b.descriptor.id} → ${id}`);
    if (id === b.descriptor.id) break;
  }
  assert.ok(
    picked.some((p) => p.split(' → ')[0] === p.split(' → ')[1]),
    `clicks on the tallest buildings showed: ${picked.join(', ')}`,
  );
  assert.match((await web.page.getAttribute('#descriptor a', 'href')) ?? '', /^https:\/\/www\.openstreetmap\.org\/(way|relation)\/\d+$/);

  // the screenshot shows a model, not an empty canvas
  mkdirSync(SHOTS, { recursive: true });
  const file = join(SHOTS, `model-${new Date().toISOString().replace(/[:.]/g, '-')}.png`);
  await web.page.screenshot({ path: file });
  const canvas = (await web.page.locator('#viewer-canvas canvas').boundingBox())!;
  const { data, info } = await sharp(file)
    .extract({ left: Math.round(canvas.x), top: Math.round(canvas.y), width: Math.round(canvas.width) - 1, height: Math.round(canvas.height) - 30 })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const background = [0xdd, 0xe4, 0xea];
  let drawn = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    if (Math.abs(data[i] - background[0]) + Math.abs(data[i + 1] - background[1]) + Math.abs(data[i + 2] - background[2]) > 24) drawn++;
  }
  const share = drawn / (info.width * info.height);
  assert.ok(share > 0.2, `${(share * 100).toFixed(1)}% of the viewer differs from the background (${file})`);
  assert.deepEqual(web.outside, []);
});

test('Export gives a link to a GLB the Khronos validator accepts', async () => {
  await web.page.selectOption('#e-format', 'glb');
  await web.page.click('#export');
  await web.page.waitForSelector('#download-link', { timeout: 120_000 });
  const href = (await web.page.getAttribute('#download-link', 'href'))!;
  const res = await request(new URL(href, svc.url));
  assert.equal(res.statusCode, 200);
  const bytes = new Uint8Array(await res.body.arrayBuffer());
  const report = await validateGltf(bytes);
  assert.equal(report.issues.numErrors, 0, problems(report));
  assert.ok((report.info?.totalTriangleCount ?? 0) > 1000);
});

test('a self-intersecting polygon shows the message the API answers, and cannot be sent', async () => {
  await web.page.click('#draw-polygon');
  // a bow tie: the second and fourth edges cross
  const ring: [number, number][] = [
    [7.418, 43.733],
    [7.421, 43.736],
    [7.421, 43.733],
    [7.418, 43.736],
  ];
  await clickMap([...ring, ring[0]]);
  const shown = await web.page.textContent('#area-error');
  const body = await web.page.evaluate(() => window.cityContextViewer.request());
  const answer = await postContext(svc.url, svc.demo!.key, body);
  assert.equal(answer.status, 400);
  assert.equal(answer.json.code, 'polygon_self_intersecting');
  assert.equal(shown, answer.json.error);
  assert.equal(await web.page.getAttribute('#area-error', 'data-code'), 'polygon_self_intersecting');
  assert.equal(await web.page.isDisabled('#generate'), true);

  // dragging the third vertex up and out to the west untangles the tie: the message goes, the area shows
  const [from, to] = (await web.page.evaluate(
    ([a, b]) => {
      const map = window.cityContextViewer.map;
      const r = map.getContainer().getBoundingClientRect();
      return [a, b].map((p: any) => {
        const q = map.project(p);
        return { x: r.left + q.x, y: r.top + q.y };
      });
    },
    [ring[2], [7.417, 43.737]],
  )) as { x: number; y: number }[];
  // the handle is drawn once MapLibre has rendered the new vertices (later on a busy box): only
  // then does a press on it start a drag instead of panning the map
  await web.page.waitForFunction(
    ([x, y]) => {
      const map = window.cityContextViewer.map;
      const r = map.getContainer().getBoundingClientRect();
      return map.queryRenderedFeatures([x - r.left, y - r.top], { layers: ['draw-vertices'] }).length > 0;
    },
    [from.x, from.y],
    { timeout: 15_000 },
  );
  await web.page.mouse.move(from.x, from.y);
  await web.page.mouse.down();
  await web.page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 4 });
  await web.page.mouse.move(to.x, to.y, { steps: 4 });
  await web.page.mouse.up();
  const fixed = await web.page.evaluate(() => window.cityContextViewer.request());
  assert.notDeepEqual(fixed.polygon, body.polygon);
  assert.equal(await web.page.textContent('#area-error'), '');
  assert.equal(await web.page.isDisabled('#generate'), false);
});

test('the URL reproduces the area, settings and camera; /docs renders the API description', async () => {
  await web.page.check('#s-cropScene');
  await web.page.selectOption('#s-upAxis', 'Z');
  const url = web.page.url();
  const before = await web.page.evaluate(() => window.cityContextViewer.request());
  assert.deepEqual(before.settings, { cropScene: true, upAxis: 'Z' });
  const other = await web.browser.newPage();
  await other.goto(url);
  await other.waitForFunction(() => document.body.dataset.ready === 'true', null, { timeout: 60_000 });
  assert.deepEqual(await other.evaluate(() => window.cityContextViewer.request()), before);
  assert.match(new URL(url).hash, /c=[-\d.]+(%2C[-\d.]+){5}/, 'the camera is in the URL');
  await other.goto(`${svc.url}/docs`);
  await other.waitForSelector('#docs .op');
  const operations = await other.locator('#docs .op').count();
  assert.ok(operations >= 3, `${operations} operations`);
  assert.ok((await other.locator('#schema-Settings + p + table tr').count()) > 15, 'the Settings fields as a table');
  await other.close();
  assert.deepEqual(web.outside, []);
});
