import assert from 'node:assert/strict';
import { test } from 'node:test';
import { familyOfStage, routeOf, ServiceMetrics } from '../../../src/server/metrics.ts';
import { parsePrometheusText } from '../../support/checks/prometheus-text.ts';

test('the metrics parse as Prometheus text, with counts, tile time by family, km² by event and the gauges read when scraped', async () => {
  const metrics = new ServiceMetrics();
  let queued = 3;
  metrics.watch({ inFlight: () => 2, queued: () => queued, tilesWaiting: () => 7, tilesRunning: () => 1 });
  metrics.request('/v1/context', 'POST', 200, '', 0.4);
  metrics.request('/v1/context', 'POST', 402, 'insufficient_balance', 0.002);
  metrics.request('other', 'BREW', 404, 'not_found', 0.001);
  metrics.tile({ build: 10, crop: 2, encode: 3, surfaceRoads: 40, surfaceMeshEncode: 5, terrain: 8, somethingNew: 1 });
  metrics.km2('reserved', 0.25);
  metrics.km2('charged', 0.25);
  metrics.exportStored(1234);
  queued = 5;
  const families = parsePrometheusText(await metrics.text());
  const value = (name: string, labels: Record<string, string> = {}) =>
    [...families.values()].flatMap((f) => f.samples).find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
  assert.equal(value('city_http_requests_total', { route: '/v1/context', status: '200', code: '' }), 1);
  assert.equal(value('city_http_requests_total', { route: '/v1/context', status: '402', code: 'insufficient_balance' }), 1);
  assert.equal(value('city_http_requests_total', { route: 'other', method: 'other' }), 1, 'an unknown method is not a label value');
  assert.equal(value('city_http_request_duration_seconds_count', { route: '/v1/context', status: '200' }), 1);
  assert.equal(value('city_http_request_duration_seconds_bucket', { route: '/v1/context', status: '200', le: '0.25' }), 0);
  assert.equal(value('city_http_request_duration_seconds_bucket', { route: '/v1/context', status: '200', le: '0.5' }), 1);
  assert.ok(Math.abs(value('city_tile_build_seconds_sum', { family: 'buildings' })! - 0.015) < 1e-9);
  assert.ok(Math.abs(value('city_tile_build_seconds_sum', { family: 'surface' })! - 0.045) < 1e-9);
  assert.equal(value('city_tile_build_seconds_count', { family: 'topography' }), 1);
  assert.equal(value('city_tile_build_seconds_count', { family: 'other' }), 1);
  assert.equal(value('city_km2_total', { event: 'reserved' }), 0.25);
  assert.equal(value('city_km2_total', { event: 'charged' }), 0.25);
  assert.equal(value('city_export_bytes_stored_total'), 1234);
  assert.equal(value('city_exports_stored_total'), 1);
  assert.equal(value('city_requests_in_flight'), 2);
  assert.equal(value('city_requests_queued'), 5, 'read at scrape time');
  assert.equal(value('city_tile_pool_queue_length'), 7);
  assert.equal(value('city_tile_pool_running'), 1);
  assert.equal(families.get('city_http_request_duration_seconds')?.type, 'histogram');
  assert.equal(families.get('process_cpu_seconds_total'), undefined, 'process metrics only when asked');
});

test('process metrics when asked', async () => {
  const families = parsePrometheusText(await new ServiceMetrics({ processMetrics: true }).text());
  assert.equal(families.get('process_cpu_seconds_total')?.type, 'counter');
  assert.equal(families.get('nodejs_eventloop_lag_seconds')?.type, 'gauge');
});

test('stages belong to the family that names them; a path becomes a fixed route, never itself', () => {
  assert.equal(familyOfStage('build'), 'buildings');
  assert.equal(familyOfStage('surfaceAssemble'), 'surface');
  assert.equal(familyOfStage('instancesCanopy'), 'instances');
  assert.equal(familyOfStage('barriersEncode'), 'barriers');
  assert.equal(familyOfStage('terrainMesh'), 'topography');
  assert.equal(familyOfStage('query'), 'other');
  assert.equal(routeOf('/v1/exports/abc/x.glb', true), '/v1/exports/{token}/{name}');
  assert.equal(routeOf('/metrics', false), '/metrics');
  assert.equal(routeOf('/v1/context/../../etc/passwd', false), 'other');
});

test('the Prometheus reader refuses what is not the text format', () => {
  const ok = '# HELP a_total A.\n# TYPE a_total counter\na_total{x="1"} 2\n';
  assert.equal(parsePrometheusText(ok).get('a_total')?.samples[0].value, 2);
  assert.throws(() => parsePrometheusText(ok.trimEnd()), /newline/);
  assert.throws(() => parsePrometheusText('b_total 1\n'), /undeclared/);
  assert.throws(() => parsePrometheusText('# TYPE a counter\na{x=1} 2\n'), /labels/);
  assert.throws(() => parsePrometheusText('# TYPE a counter\na 2 3 4\n'), /malformed/);
  assert.throws(() => parsePrometheusText('# TYPE a counter\na one\n'), /bad value/);
  assert.throws(() => parsePrometheusText('# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_sum 1\nh_count 1\n'), /cumulative/);
  assert.throws(() => parsePrometheusText('# TYPE h histogram\nh_bucket{le="1"} 1\nh_sum 1\nh_count 1\n'), /\+Inf/);
});
