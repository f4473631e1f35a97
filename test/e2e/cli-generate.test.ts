/**
 * `city-context generate` in its own process on the Monaco sample with the default configuration
 * (the store built from the bundled extract on the first run, as npm start does): exports read
 * back by the independent readers (Khronos glTF validator, gltf-transform, assimp), the polygon
 * from GeoJSON and KML files, plain progress lines when stderr is not a terminal, and bad input
 * answered with the API's own message and exit code 2.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { NodeIO } from '@gltf-transform/core';
import { ApiError } from '../../src/contract/errors.ts';
import { parseContextRequest } from '../../src/contract/parse-request.ts';
import { assimpMeshes, unzip } from '../support/checks/export-readers.ts';
import { problems, validateGltf } from '../support/checks/gltf-validate.ts';
import { cli, type CliRun } from '../support/cli/run-cli.ts';
import { BUILDING, POLYGON } from '../support/service/export-app.ts';

const dir = mkdtempSync(join(tmpdir(), 'cc-cli-generate-'));
const env = { CITY_DATA_DIR: join(dir, 'var'), CITY_WORKERS: '1' };
const run = (...args: string[]) => cli(args, { cwd: dir, env });

/** POLYGON (160 m around way/94252406) as the files QGIS and Google Earth write: GeoJSON [lon, lat], KML lon,lat,alt. */
const GEOJSON = join(dir, 'site.geojson');
const KML = join(dir, 'site.kml');
before(() => {
  const feature = { type: 'Feature', properties: { name: 'site' }, geometry: { type: 'Polygon', coordinates: [POLYGON.map(([lat, lon]) => [lon, lat])] } };
  writeFileSync(GEOJSON, JSON.stringify({ type: 'FeatureCollection', features: [feature] }));
  const coordinates = POLYGON.map(([lat, lon]) => `${lon},${lat},0`).join(' ');
  writeFileSync(
    KML,
    `<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2"><Document><Placemark><name>site</name><Polygon><outerBoundaryIs><LinearRing><coordinates>${coordinates}</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark></Document></kml>`,
  );
});

/** The exit code and, when it is not the expected one, what the command said. */
function exited(r: CliRun, code: number): void {
  assert.equal(r.code, code, `exit ${r.code}\nstdout: ${r.stdout.slice(0, 2000)}\nstderr: ${r.stderr}`);
}

/** The API's own sentence for a body. */
function apiMessage(body: unknown): string {
  try {
    parseContextRequest(body);
  } catch (err) {
    if (err instanceof ApiError) return err.message;
  }
  throw new Error('the body is valid');
}

after(() => {
  // nothing half-written is left beside the outputs (temporary and staged names start with a dot)
  assert.deepEqual(
    readdirSync(dir).filter((n) => n.startsWith('.')),
    [],
  );
});

test('a KML polygon to GLB on the Monaco sample (store built on the first run): the Khronos validator accepts it, the building is in it; progress as plain lines', async () => {
  const r = await run('generate', '--polygon', KML, '--format', 'glb', '-o', 'site.glb');
  exited(r, 0);
  assert.match(r.stderr, /Building the OSM store from .*monaco\.osm\.pbf \(first start\)/);
  assert.equal(r.stdout.trim(), join(dir, 'site.glb'), `stdout names the file; stderr: ${r.stderr}`);
  // not a terminal: plain lines, the first when the tiles start and the last with all of them done
  const lines = r.stderr.split('\n').filter((l) => l.startsWith('progress: '));
  assert.match(lines[0], /^progress: tiles 0\/(\d+), groups 0\/\d+, /);
  const last = /^progress: tiles (\d+)\/(\d+), groups (\d+)\/(\d+), \d+ KB, [\d.]+ s \(done\)$/.exec(lines.at(-1)!);
  assert.ok(last, lines.at(-1));
  assert.equal(last[1], last[2], 'every tile done');
  assert.ok(Number(last[3]) > 0, 'groups got items');
  assert.ok(!r.stderr.includes('\r') && !r.stderr.includes('\x1b['), 'no terminal control characters');

  const bytes = readFileSync(join(dir, 'site.glb'));
  const report = await validateGltf(bytes);
  assert.equal(report.issues.numErrors, 0, problems(report));
  assert.ok((report.info?.totalTriangleCount ?? 0) > 1000, `${report.info?.totalTriangleCount} triangles`);
  const names = (await new NodeIO().readBinary(bytes))
    .getRoot()
    .listNodes()
    .map((n) => n.getName());
  assert.ok(names.includes('buildings') && names.includes(BUILDING), 'group node and the building by id');
});

test('a GeoJSON polygon to OBJ in millimetres with --json: the summary on stdout, assimp reads the model in the zip', async () => {
  const r = await run('generate', '-p', GEOJSON, '-f', 'obj', '--units', 'mm', '-s', '{"geometry":["buildings","surface"]}', '--json', '-q');
  exited(r, 0);
  assert.equal(r.stderr.split('\n').filter((l) => l.startsWith('progress: ')).length, 0, '--quiet');
  const summary = JSON.parse(r.stdout);
  assert.equal(summary.downloadUrl, null, 'made here: no link');
  assert.equal(summary.file, join(dir, 'city-context-43.7329N-7.4173E.obj.zip'), 'the file named as the service names it');
  assert.equal(summary.spatialReference.units, 'mm');
  assert.deepEqual(summary.warnings, []);
  const unzipped = unzip(summary.file);
  const obj = readdirSync(unzipped).find((n) => n.endsWith('.obj'))!;
  const meshes = assimpMeshes(join(unzipped, obj));
  const triangles = meshes.filter((m) => m.types === 'triangle').reduce((n, m) => n + m.faces, 0);
  assert.ok(triangles > 1000, `${triangles} triangles`);
  assert.ok(
    meshes.some((m) => m.name.includes('94252406')),
    `the building's mesh by its id: ${meshes
      .slice(0, 5)
      .map((m) => m.name)
      .join(', ')}…`,
  );
});

test('"lat,lon" pairs to JSON geometry with --json: the answer itself on stdout, the pairs read latitude first', async () => {
  const pairs = POLYGON.slice(0, -1)
    .map(([lat, lon]) => `${lat},${lon}`)
    .join(' ');
  const r = await run('generate', '--polygon', pairs, '--settings', '{"geometry":["buildings"]}', '--json');
  exited(r, 0);
  const answer = JSON.parse(r.stdout);
  assert.deepEqual(answer.origin, POLYGON[0]);
  assert.deepEqual(
    answer.geometry.map((g: { type: string }) => g.type),
    ['buildings'],
  );
  assert.ok(answer.geometry[0].meshes.some((m: { descriptor: { id: string } }) => m.descriptor.id === BUILDING));
  assert.ok(answer.attributions.length > 0 && Array.isArray(answer.warnings));
});

test("bad input: exit 2 with the API's own message (self-intersecting, too large, bad setting, unwritable format) or the usage problem; nothing is built", async () => {
  const bowtie = '43.733,7.4175 43.7345,7.4195 43.733,7.4195 43.7345,7.4175';
  const cases: [string[], string | RegExp][] = [
    [['--polygon', bowtie], apiMessage({ polygon: [...bowtie.split(' ').map((p) => p.split(',').map(Number)), [43.733, 7.4175]] })],
    [['--bbox', '7.30,43.70,7.50,43.80'], /^error: .*polygon_too_large/m],
    [['--bbox', '7.4175,43.733,7.4195,43.7345', '-s', '{"defaultLevels":0}'], /\(invalid_setting\)/],
    [['--bbox', '7.4175,43.733,7.4195,43.7345', '-f', 'skp'], /SketchUp's SDK is closed.*\(format_unavailable\)/],
    [['--bbox', '7.4175,43.733,7.4195,43.7345', '--crs', 'EPSG:2154'], /--crs is an export option: give --format too/],
    [['--polygon', join(dir, 'missing.kml')], /no file ".*missing\.kml"/],
    [['--polygon', GEOJSON, '--colour', 'red'], /Unknown option '--colour'/],
  ];
  for (const [args, message] of cases) {
    const r = await run('generate', ...args);
    exited(r, 2);
    if (typeof message === 'string') assert.ok(r.stderr.includes(`error: ${message}`), `${args.join(' ')}: ${r.stderr}`);
    else assert.match(r.stderr, message, args.join(' '));
    assert.equal(r.stdout, '');
  }
  assert.match(apiMessage({ polygon: [] }), /./, 'the helper sees API errors');
});

test('an unreachable --url: exit 1 and what failed; no output file', async () => {
  const r = await run('generate', '--bbox', '7.4175,43.733,7.4195,43.7345', '--url', 'http://127.0.0.1:9', '--key', 'cc_dev_x', '-o', 'remote.json');
  exited(r, 1);
  assert.match(r.stderr, /^error: cannot reach http:\/\/127\.0\.0\.1:9: ECONNREFUSED$/m);
  assert.ok(!readdirSync(dir).includes('remote.json'));
});

test('every command answers --help on stdout with exit 0; an unknown command exits 2', async () => {
  for (const name of ['generate', 'serve', 'import', 'admin', 'import-buildings', 'bake-ground', 'import-postgis']) {
    const r = await run(name, '--help');
    exited(r, 0);
    assert.match(r.stdout, new RegExp(`^Usage: city-context ${name}`), name);
  }
  const top = await run('--help');
  exited(top, 0);
  assert.match(top.stdout, /generate .*\n\s+serve .*\n\s+import .*\n\s+admin .*\n\s+import-buildings .*\n\s+bake-ground .*\n\s+import-postgis /);
  exited(await run('frobnicate'), 2);
});

test('bake-ground builds the ground cache over a box once; a bad box exits 2', async () => {
  if (!readdirSync(join(dir, 'var')).includes('osm.sqlite')) exited(await run('import'), 0);
  const box = '7.418,43.731,7.426,43.737';
  const bake = (...args: string[]) => cli(['bake-ground', ...args], { cwd: dir, env: { ...env, CITY_GROUND_CACHE: 'on' } });
  const first = await bake('--bbox', box);
  exited(first, 0);
  const built = Number(/: (\d+) cells built/.exec(first.stdout)?.[1]);
  assert.ok(built >= 4, first.stdout);
  assert.match(first.stderr, /cells \d+ \/ \d+/);
  const again = await bake('--bbox', box);
  exited(again, 0);
  assert.match(again.stdout, /: 0 cells built/);
  const bad = await bake('--bbox', '7.43,43.73,7.42,43.74');
  exited(bad, 2);
  assert.match(bad.stderr, /--bbox: the minimum must be below the maximum/);
});
