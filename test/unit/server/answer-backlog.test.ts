/**
 * The backlog of an answer (src/server/answer-backlog.ts): room while less than the bound waits,
 * a wait that ends when the stream drains or closes, and `drained` once every byte was taken.
 * Driven with a stream whose writes complete when the test says, as a socket's do when the client reads.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { AnswerBacklog } from '../../../src/server/answer-backlog.ts';

/** A writable whose pending write completes on `take()`. */
function slowSocket() {
  const pending: (() => void)[] = [];
  const stream = new Writable({
    highWaterMark: 4,
    write(_chunk, _enc, cb) {
      pending.push(cb);
    },
  });
  return { stream, take: () => pending.shift()?.() };
}

const tick = () => new Promise((r) => setImmediate(r));

test('room below the bound; above it a wait that ends when the stream drains', async () => {
  const { stream, take } = slowSocket();
  const backlog = new AnswerBacklog([stream], 10);
  stream.write(Buffer.alloc(6));
  assert.equal(backlog.bytes, 6);
  assert.equal(backlog.whenRoom(), null);
  stream.write(Buffer.alloc(6));
  const wait = backlog.whenRoom();
  assert.ok(wait, 'over the bound');
  let done = false;
  void wait.then(() => (done = true));
  take();
  await tick();
  assert.equal(done, false, 'still 6 bytes waiting: no drain yet');
  take();
  await tick();
  assert.equal(done, true);
  assert.equal(backlog.bytes, 0);
  assert.equal(stream.listenerCount('drain'), 0, 'no listener left behind');
});

test('a closed stream never holds the request: its wait ends, and no new one starts', async () => {
  const { stream } = slowSocket();
  const backlog = new AnswerBacklog([stream], 4);
  stream.write(Buffer.alloc(8));
  const wait = backlog.whenRoom();
  assert.ok(wait);
  stream.destroy();
  await wait;
  assert.equal(backlog.whenRoom(), null);
  await backlog.drained();
});

test('drained resolves once every byte was taken, however small the rest', async () => {
  const { stream, take } = slowSocket();
  const backlog = new AnswerBacklog([stream], 1 << 20);
  stream.write(Buffer.alloc(2)); // below the high-water mark: no 'drain' will follow
  let done = false;
  const drained = backlog.drained().then(() => (done = true));
  await tick();
  assert.equal(done, false);
  take();
  await drained;
  assert.equal(backlog.bytes, 0);
});
