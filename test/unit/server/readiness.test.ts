import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readiness } from '../../../src/server/readiness.ts';

test('a request waits until the workers are up and ends the warm-up; /readyz is 503 until ready', async () => {
  const r = new Readiness();
  r.enter('starting the workers');
  assert.equal(r.notReadyError()?.status, 503);
  assert.equal(r.notReadyError()?.code, 'not_ready');
  assert.equal(r.notReadyError()?.details[0].phase, 'starting the workers');
  assert.equal(r.trafficSignal.aborted, false);
  let served = false;
  const waiting = r.untilServable().then(() => {
    served = true;
  });
  assert.equal(r.trafficSignal.aborted, true, 'the first request ends the warm-up on whole requests');
  await new Promise((res) => setImmediate(res));
  assert.equal(served, false, 'no workers yet');
  r.servable();
  await waiting;
  assert.equal(r.notReadyError()?.status, 503, 'servable is not yet warm');
  r.markReady();
  assert.equal(r.notReadyError(), null);
  assert.equal(r.isReady, true);
});

test('a failed start fails the waiting requests and keeps /readyz at 503 with the reason', async () => {
  const r = new Readiness();
  const waiting = r.untilServable();
  r.fail(new Error('the extract is missing'));
  await assert.rejects(waiting, /the extract is missing/);
  const err = r.notReadyError();
  assert.equal(err?.status, 503);
  assert.match(err!.message, /failed to start \(the extract is missing\)/);
});

test('Readiness.ready() is ready and never holds a request', async () => {
  const r = Readiness.ready();
  assert.equal(r.notReadyError(), null);
  await r.untilServable();
});
