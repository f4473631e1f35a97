/**
 * Street furniture and trees (issue 9) for `npm run bench`: over a server started by the caller,
 * the ~10 km² square with `geometry: ['instances']` alone (flat) and with `projectToTopography`
 * (nodes on the terrain), each warmed up once and timed warm (median of `runs`), with the
 * server's CPU-seconds and peak RSS. Nothing here asserts.
 */
import { figures, measure, medianOf, square, type BenchServer, type Measured } from '../bench-server.ts';

export interface InstancesBenchCase {
  centre: [number, number];
  /** Side of the square, metres. */
  side: number;
}

async function warmMedian(server: BenchServer, body: unknown, runs: number): Promise<Measured> {
  await measure(server, body);
  const out: Measured[] = [];
  for (let i = 0; i < runs; i++) out.push(await measure(server, body));
  return medianOf(out);
}

/** Times the instances requests on `server` and prints them. */
export async function benchInstanceRequests(label: string, server: BenchServer, c: InstancesBenchCase, runs: number): Promise<void> {
  const polygon = square(c.centre[0], c.centre[1], c.side);
  const flat = await warmMedian(server, { polygon, settings: { geometry: ['instances'] } }, runs);
  console.log(`${label} ~10 km² instances (street furniture and trees) alone, warm (median of ${runs}): ${figures(flat)}`);
  const onTerrain = await warmMedian(server, { polygon, settings: { geometry: ['instances'], projectToTopography: true } }, runs);
  console.log(`${label} ~10 km² instances on the terrain (projectToTopography), warm (median of ${runs}): ${figures(onTerrain)}`);
}
