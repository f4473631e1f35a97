/**
 * `npm run fuzz`: sends generated request bodies and raw malformed requests to the service and
 * reports the answers (issue 13). Goal: 0 5xx, 0 non-JSON error bodies, 0 connections lost on a
 * well-framed request, RSS bounded. Not part of `npm test` (a seeded slice of it is:
 * test/e2e/hardening-fuzz.test.ts). Exits 1 when a goal is missed.
 *
 *   npm run fuzz                                  # 100,000 cases against a service it starts (as `npm start`, Monaco sample)
 *   npm run fuzz -- --count 20000 --seed 7
 *   npm run fuzz -- --url http://127.0.0.1:8080 --key cc_dev_…   # against a running service
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '../../src/config.ts';
import { startServer, type CompiledServer } from '../../test/support/service/compiled-server.ts';
import { runFuzz } from '../../test/support/fuzz/run.ts';
import { rssMb } from '../../test/support/service/proc.ts';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '100000' },
    seed: { type: 'string', default: '13' },
    concurrency: { type: 'string', default: '8' },
    url: { type: 'string' },
    key: { type: 'string' },
    pid: { type: 'string' },
  },
});

let server: CompiledServer | null = null;
let dataDir: string | null = null;
let base = values.url;
let key = values.key;
let pid = values.pid ? Number(values.pid) : null;
if (!base) {
  dataDir = mkdtempSync(join(tmpdir(), 'cc-fuzz-'));
  // Short idle timeout so raw cases that never finish a request do not wait 15 s each; no warm-up requests.
  process.env.CITY_IDLE_TIMEOUT_MS ??= '2000';
  process.env.CITY_WARMUP_REQUESTS_MS ??= '0';
  console.log(`Starting the service on ${dataDir} …`);
  server = await startServer(dataDir, join(REPO_ROOT, 'data/monaco/monaco.osm.pbf'));
  ({ base, key, pid } = server);
}
if (!key) throw new Error('--key is required with --url');

try {
  const count = Number(values.count);
  console.log(`Fuzzing ${base} with ${count} cases (seed ${values.seed}, ${values.concurrency} at once)…`);
  const report = await runFuzz({
    base,
    key,
    count,
    seed: Number(values.seed),
    concurrency: Number(values.concurrency),
    rssMb: pid ? () => rssMb(pid!) : undefined,
    progress: (done) => {
      if (done % 10_000 === 0) console.log(`  ${done} cases`);
    },
  });
  console.log(JSON.stringify(report, null, 2));
  const ok = report.serverErrors === 0 && report.nonJsonErrors === 0 && report.unexpectedResets === 0;
  console.log(ok ? 'All goals met.' : 'Goals missed: see findings.');
  process.exitCode = ok ? 0 : 1;
} finally {
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
