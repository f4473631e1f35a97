import { getHeapStatistics } from 'node:v8';
import { setTimeout as delay } from 'node:timers/promises';

/** Heap bytes freed since `before` once ≥ 10 MB are (the collection runs incrementally), or after `ms`. */
export async function freedWithin(before: number, ms: number): Promise<number> {
  const until = Date.now() + ms;
  let freed = before - getHeapStatistics().used_heap_size;
  while (freed < 10 * 1024 * 1024 && Date.now() < until) {
    await delay(20);
    freed = before - getHeapStatistics().used_heap_size;
  }
  return freed;
}
