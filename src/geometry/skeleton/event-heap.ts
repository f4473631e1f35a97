/** A small binary min-heap on event time, for the wavefront skeleton's event queue. */

export function heapPush<E extends { t: number }>(heap: E[], e: E): void {
  heap.push(e);
  let i = heap.length - 1;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (heap[parent].t <= e.t) break;
    heap[i] = heap[parent];
    i = parent;
  }
  heap[i] = e;
}

export function heapPop<E extends { t: number }>(heap: E[]): E | undefined {
  const top = heap[0];
  const last = heap.pop();
  if (heap.length > 0 && last) {
    let i = 0;
    for (;;) {
      const l = 2 * i + 1,
        r = l + 1;
      let m = i;
      const mt = () => (m === i ? last.t : heap[m].t);
      if (l < heap.length && heap[l].t < mt()) m = l;
      if (r < heap.length && heap[r].t < mt()) m = r;
      if (m === i) break;
      heap[i] = heap[m];
      i = m;
    }
    heap[i] = last;
  }
  return top;
}
