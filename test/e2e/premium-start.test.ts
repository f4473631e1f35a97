/**
 * A first start imports the bundled premium samples behind the listening server (before the
 * workers warm up, so `/readyz` is 503 until they are in), and a request over the Berlin sample —
 * outside the OSM data (the Monaco sample) — answers its 61 premium buildings with the dataset's
 * credit line, while a Monaco request stays OSM only. A second start on the same data directory
 * imports nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { startService } from '../../src/service.ts';
import { postContext } from '../support/service/http.ts';
import { square } from '../support/polygons.ts';

const BERLIN: [number, number][] = [
  [52.5117, 13.3857],
  [52.5117, 13.3898],
  [52.5154, 13.3898],
  [52.5154, 13.3857],
  [52.5117, 13.3857],
];

test('a first start imports the premium samples before it is ready; Berlin answers its premium buildings', { timeout: 300_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cc-premium-start-'));
  const config = { ...loadConfig({ CITY_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' }), workers: 2, warmUpMs: 100, warmUpRequestsMs: 0 };
  const lines: string[] = [];
  const svc = await startService(config, (line) => lines.push(line));
  try {
    await svc.ready;
    const imported = lines.findIndex((l) => /premium: berlin-sample: 61 buildings/.test(l));
    const warmed = lines.findIndex((l) => /Workers warmed up/.test(l));
    assert.ok(imported >= 0 && lines.some((l) => /premium: zurich-sample: 49 buildings/.test(l)), lines.join('\n'));
    assert.ok(imported < warmed, 'imported before the workers warm up (and so before /readyz turns 200)');
    const key = svc.demo!.key;
    const berlin = await postContext(svc.url, key, { polygon: BERLIN, settings: { geometry: ['buildings'] } });
    assert.equal(berlin.status, 200, berlin.text);
    const meshes = berlin.json.geometry.find((g: { type: string }) => g.type === 'buildings').meshes as { descriptor: Record<string, unknown> }[];
    assert.equal(meshes.length, 61);
    assert.ok(meshes.every((m) => m.descriptor.dataTier === 'premium' && String(m.descriptor.id).startsWith('berlin-sample:')));
    const credits = berlin.json.attributions as { id: string; text: string }[];
    assert.ok(credits.some((a) => a.id === 'premium:berlin-sample' && /Berlin Partner/.test(a.text)));
    assert.ok(!credits.some((a) => a.id === 'premium:zurich-sample'), 'only the dataset that contributed');
    const warning = (berlin.json.warnings as { code: string; message: string }[]).find((w) => w.code === 'osm_unavailable');
    assert.match(warning?.message ?? '', /the buildings are premium data only/);
    const monaco = await postContext(svc.url, key, { polygon: square(43.7345, 7.419, 300), settings: { geometry: ['buildings'] } });
    assert.equal(monaco.status, 200);
    assert.ok(!(monaco.json.attributions as { id: string }[]).some((a) => a.id.startsWith('premium:')));
  } finally {
    await svc.close();
  }
  const again: string[] = [];
  const second = await startService(config, (line) => again.push(line));
  try {
    await second.ready;
    assert.ok(!again.some((l) => /premium: importing/.test(l)), 'nothing imported the second time');
  } finally {
    await second.close();
  }
});
