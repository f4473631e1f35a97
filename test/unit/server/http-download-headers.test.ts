import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contentDisposition, etagMatches, ifRangeHolds, parseRange } from '../../../src/server/http-download-headers.ts';

test('parseRange: single byte ranges, suffixes, open ends, and what falls back to the whole file', () => {
  assert.deepEqual(parseRange(undefined, 10), { kind: 'full' });
  assert.deepEqual(parseRange('bytes=0-0', 10), { kind: 'partial', start: 0, end: 0 });
  assert.deepEqual(parseRange('bytes=2-5', 10), { kind: 'partial', start: 2, end: 5 });
  assert.deepEqual(parseRange('bytes=4-', 10), { kind: 'partial', start: 4, end: 9 });
  assert.deepEqual(parseRange('bytes=8-100', 10), { kind: 'partial', start: 8, end: 9 }, 'an end past the file is clipped');
  assert.deepEqual(parseRange('bytes=-3', 10), { kind: 'partial', start: 7, end: 9 });
  assert.deepEqual(parseRange('bytes=-30', 10), { kind: 'partial', start: 0, end: 9 });
  assert.deepEqual(parseRange('bytes=10-', 10), { kind: 'unsatisfiable' });
  assert.deepEqual(parseRange('bytes=-0', 10), { kind: 'unsatisfiable' });
  assert.deepEqual(parseRange('bytes=0-', 0), { kind: 'unsatisfiable' });
  for (const ignored of ['bytes=0-1,4-5', 'items=0-1', 'bytes=5-2', 'bytes=a-b', 'bytes=-', 'bytes=1.5-2']) {
    assert.deepEqual(parseRange(ignored, 10), { kind: 'full' }, ignored);
  }
});

test('etagMatches (weak, lists, *) and ifRangeHolds (strong, exact)', () => {
  assert.equal(etagMatches('"abc"', '"abc"'), true);
  assert.equal(etagMatches('W/"abc"', '"abc"'), true);
  assert.equal(etagMatches('"x", "abc"', '"abc"'), true);
  assert.equal(etagMatches('*', '"abc"'), true);
  assert.equal(etagMatches('"abcd"', '"abc"'), false);
  assert.equal(etagMatches(undefined, '"abc"'), false);
  assert.equal(ifRangeHolds(undefined, '"abc"'), true);
  assert.equal(ifRangeHolds('"abc"', '"abc"'), true);
  assert.equal(ifRangeHolds('W/"abc"', '"abc"'), false);
  assert.equal(ifRangeHolds('Wed, 21 Oct 2015 07:28:00 GMT', '"abc"'), false);
});

test('contentDisposition: ASCII fallback plus the exact UTF-8 name (RFC 6266 / 8187)', () => {
  assert.equal(contentDisposition('monaco.glb'), `attachment; filename="monaco.glb"; filename*=UTF-8''monaco.glb`);
  assert.equal(
    contentDisposition('Zürich "alt" (1)%.ifc'),
    `attachment; filename="Zurich _alt_ (1)_.ifc"; filename*=UTF-8''Z%C3%BCrich%20%22alt%22%20%281%29%25.ifc`,
  );
  assert.equal(contentDisposition('東京.dxf'), `attachment; filename="__.dxf"; filename*=UTF-8''%E6%9D%B1%E4%BA%AC.dxf`);
});
