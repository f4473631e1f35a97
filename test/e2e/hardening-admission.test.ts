/**
 * Admission by expected cost through the real HTTP app and sockets (src/server/admission.ts):
 * big requests cannot take the slots kept for small ones, and a request that would wait longer
 * than the queue timeout hears so at once. The stand-in pool takes `delayMs` per request
 * whatever its size, so order, not time, is what the tests compare.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Admission } from '../../src/server/admission.ts';
import { square } from '../support/polygons.ts';
import { startFakeApp, smallBody } from '../support/service/fake-app.ts';
import { postContext, type Answer } from '../support/service/http.ts';

/** A ~2.25 km² request: large. */
const bigBody = () => ({ polygon: square(43.735, 7.419, 1500), settings: { geometry: ['buildings'] } });

/** Posts and notes the order in which answers complete. */
function timeline() {
  const done: string[] = [];
  const post = (url: string, key: string, name: string, body: unknown): Promise<Answer> =>
    postContext(url, key, body).then((a) => {
      done.push(name);
      return a;
    });
  return { done, post };
}

test('a small request runs beside big ones in the slot kept for it, instead of queueing behind them', async () => {
  const app = await startFakeApp({ delayMs: 1500, admission: new Admission({ maxInFlight: 2, maxQueue: 8, timeoutMs: 30_000 }) });
  try {
    const { key } = await app.newKey(100);
    const { done, post } = timeline();
    const big1 = post(app.url, key, 'big1', bigBody());
    const big2 = post(app.url, key, 'big2', bigBody());
    await new Promise((r) => setTimeout(r, 200)); // both big ones are in before the small one
    const small = post(app.url, key, 'small', smallBody());
    const answers = await Promise.all([big1, big2, small]);
    assert.deepEqual(
      answers.map((a) => a.status),
      [200, 200, 200],
    );
    assert.ok(done.indexOf('small') < done.indexOf('big2'), `completed in the order ${done.join(', ')}`);
  } finally {
    await app.close();
  }
});

test('a big request that would wait longer than the queue timeout gets 503 with Retry-After at once, not after the wait', async () => {
  const app = await startFakeApp({ delayMs: 1500, admission: new Admission({ maxInFlight: 2, maxQueue: 8, timeoutMs: 2500 }) });
  try {
    const { key } = await app.newKey(100);
    assert.equal((await postContext(app.url, key, bigBody())).status, 200); // teaches what a big request costs
    const { done, post } = timeline();
    const a = post(app.url, key, 'a', bigBody()); // runs ~1.5 s
    await new Promise((r) => setTimeout(r, 100));
    const b = post(app.url, key, 'b', bigBody()); // starts when a ends: within the timeout
    await new Promise((r) => setTimeout(r, 100));
    const c = post(app.url, key, 'c', bigBody()); // would start after a and b, ~3 s: past it
    const answers = await Promise.all([a, b, c]);
    assert.deepEqual(
      answers.map((x) => x.status),
      [200, 200, 503],
    );
    assert.equal(answers[2].json.code, 'server_busy');
    assert.ok(Number(answers[2].headers['retry-after']) >= 1);
    assert.equal(done[0], 'c', `completed in the order ${done.join(', ')}`);
  } finally {
    await app.close();
  }
});
