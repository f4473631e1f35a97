/** `generate`'s options to the request body the API parses: the export object's fields, settings inline or from a file. */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { UsageError } from '../../../src/cli/command.ts';
import { requestBodyFrom } from '../../../src/cli/generate-request.ts';
import { parseContextRequest } from '../../../src/contract/parse-request.ts';

const BBOX = '7.4175,43.733,7.4195,43.7345';
const usage = (message: RegExp) => (e: unknown) => e instanceof UsageError && message.test(e.message);

test('the export options fill the export object under its own field names, and the API reads them', () => {
  const { body } = requestBodyFrom({ bbox: BBOX, format: 'obj', crs: 'epsg:32632', placement: 'absolute', units: 'mm', 'surface-type': 'outlines' });
  assert.deepEqual(body.export, { format: 'obj', crs: 'epsg:32632', placement: 'absolute', units: 'mm', surfaceType: 'outlines' });
  assert.deepEqual(parseContextRequest(body).export, { format: 'obj', crs: 'EPSG:32632', placement: 'absolute', units: 'mm', surfaceType: 'outlines' });
  assert.equal(requestBodyFrom({ bbox: BBOX }).body.export, undefined, 'no --format: JSON geometry');
  assert.throws(() => requestBodyFrom({ bbox: BBOX, units: 'mm' }), usage(/--units is an export option: give --format/));
});

test('--settings takes a JSON object or a file of one; --origin one pair', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cc-settings-'));
  const file = join(dir, 'settings.json');
  writeFileSync(file, '{"geometry":["buildings"],"defaultLevels":3}');
  const fromFile = requestBodyFrom({ bbox: BBOX, settings: file, origin: '43.734, 7.418' }).body;
  const inline = requestBodyFrom({ bbox: BBOX, settings: ' {"geometry":["buildings"],"defaultLevels":3}', origin: '43.734,7.418' }).body;
  assert.deepEqual(fromFile, inline);
  const request = parseContextRequest(fromFile);
  assert.deepEqual([request.settings.geometry, request.settings.defaultLevels, request.origin], [['buildings'], 3, [43.734, 7.418]]);
  assert.throws(() => requestBodyFrom({ bbox: BBOX, settings: '{"geometry":' }), usage(/not valid JSON/));
  assert.throws(() => requestBodyFrom({ bbox: BBOX, settings: join(dir, 'none.json') }), usage(/no file/));
  assert.throws(() => requestBodyFrom({ bbox: BBOX, origin: '43.7,7.4 43.8,7.5' }), usage(/one "lat,lon" pair/));
});

test('the site is --polygon or --bbox, exactly one', () => {
  assert.throws(() => requestBodyFrom({}), usage(/--polygon or as --bbox/));
  assert.throws(() => requestBodyFrom({ bbox: BBOX, polygon: '43.7,7.4 43.7,7.41 43.71,7.41' }), usage(/--polygon or as --bbox/));
});
