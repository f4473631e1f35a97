/** Timing helpers of the benchmarks that time work in their own process. */

/** The median of `xs` (the upper middle one of an even count). */
export const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** `runs` calls of `f`, one after another: the median wall seconds and CPU-seconds (this process, all threads), and the last result. */
export async function timeRuns<T>(runs: number, f: () => T | Promise<T>): Promise<{ wall: number; cpu: number; out: T }> {
  const walls: number[] = [],
    cpus: number[] = [];
  let out!: T;
  for (let k = 0; k < runs; k++) {
    const c0 = process.cpuUsage(),
      t0 = performance.now();
    out = await f();
    walls.push((performance.now() - t0) / 1000);
    const c = process.cpuUsage(c0);
    cpus.push((c.user + c.system) / 1e6);
  }
  return { wall: median(walls), cpu: median(cpus), out };
}
