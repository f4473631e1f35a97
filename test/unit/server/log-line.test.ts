import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lineLogger, logFormatFromEnv } from '../../../src/server/log-line.ts';

test('json: every line becomes one JSON object, request lines pass as they are; text: lines as written', () => {
  const lines: string[] = [];
  const json = lineLogger('json', (l) => lines.push(l));
  json('Ready 1.2 s after listening');
  json('WARNING: exports will be refused until this is fixed: disk full');
  json('{"msg":"request","status":200}');
  assert.deepEqual(
    lines.map((l) => {
      const { time, ...rest } = JSON.parse(l);
      return rest;
    }),
    [
      { level: 'info', msg: 'Ready 1.2 s after listening' },
      { level: 'warn', msg: 'WARNING: exports will be refused until this is fixed: disk full' },
      { msg: 'request', status: 200 },
    ],
  );
  assert.ok(!Number.isNaN(Date.parse(JSON.parse(lines[0]).time)));
  const plain: string[] = [];
  lineLogger('text', (l) => plain.push(l))('Ready');
  assert.deepEqual(plain, ['Ready']);
  assert.equal(logFormatFromEnv(undefined), 'text');
  assert.equal(logFormatFromEnv('json'), 'json');
  assert.throws(() => logFormatFromEnv('xml'), /CITY_LOG_FORMAT/);
});
