/** Worker for test/unit/export/full-gc.test.ts: makes garbage, starts a full collection, posts how many heap bytes that freed once it is done. */
import { getHeapStatistics } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { startFullGc } from '../../../src/export/full-gc.ts';
import { freedWithin } from './heap-freed.ts';

const hasGc = typeof (globalThis as { gc?: unknown }).gc === 'function';
let junk: unknown[] | null = Array.from({ length: 300_000 }, (_, i) => ({ i, s: `item ${i}` }));
const before = getHeapStatistics().used_heap_size;
junk = null;
startFullGc();
void freedWithin(before, 1000).then((freed) => parentPort!.postMessage({ freed, junk, hasGc }));
