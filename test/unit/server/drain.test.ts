import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RequestDrain } from '../../../src/server/drain.ts';

test('settled: true at once with nothing running, true when the last handler returns (or fails), false when one outlives the wait', async () => {
  const drain = new RequestDrain();
  assert.equal(await drain.settled(0), true);
  let finish!: () => void;
  let fail!: (err: Error) => void;
  drain.track(new Promise<void>((r) => (finish = r)));
  drain.track(new Promise<void>((_, r) => (fail = r)));
  assert.equal(drain.active, 2);
  assert.equal(drain.closing, false);
  drain.begin();
  assert.equal(drain.closing, true);
  assert.equal(await drain.settled(20), false, 'both still run');
  finish();
  fail(new Error('cut'));
  assert.equal(await drain.settled(10_000), true);
  assert.equal(drain.active, 0);
});
