/**
 * `generate` in this process, on the local store, without server or account: the service's own
 * pipeline (src/pipeline/run-request.ts) on a tile pool like the service's, writing the geometry
 * answer as the server streams it (src/server/response-stream.ts), or an export through the
 * service's export path (src/export/run-export.ts) with the file written straight where it goes.
 * Like `npm start`, the store is first built from the configured extract when the data directory
 * has none.
 */
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { loadConfig, storePaths } from '../config.ts';
import type { ContextRequest } from '../contract/types.ts';
import type { ResponseWarning } from '../contract/response-schema.ts';
import { createExportPool, EXPORT_POOL_DEFAULTS } from '../export/export-pool.ts';
import { prepareExport, runExport } from '../export/run-export.ts';
import { isStaged, releaseTemp, setExportStagingDir } from '../export/store/staged.ts';
import { spatialReferenceFor } from '../frame/output-frame.ts';
import { noSourceDataWarning } from '../pipeline/data-coverage.ts';
import { runRequest, type PipelineDeps } from '../pipeline/run-request.ts';
import { AnswerBacklog } from '../server/answer-backlog.ts';
import { GeometryResponseWriter } from '../server/response-stream.ts';
import { createTilePool, ensureOsmStore } from '../service.ts';
import { importPremiumSources } from '../sources/premium/config.ts';
import type { CommandIo } from './command.ts';
import { moveInto, openOutput } from './output-file.ts';
import type { Progress } from './progress.ts';

/** What a run made: the file (null: standard output), its link on a server (none here), and the answer's warnings. */
export interface GenerateOutcome {
  file: string | null;
  downloadUrl: string | null;
  spatialReference: unknown;
  warnings: ResponseWarning[];
  /** The export's file name as a server would give it (`city-context-43.7335N-7.4190E.glb`). */
  fileName?: string;
}

/** What the geometry answer may hold in this process before the next tiles wait for the disk or pipe. */
const MAX_WAITING_BYTES = 8 << 20;

/** Same as the server's: the local store has no account limits. */
const FULL_ACCESS = { granted: 'full', suppressedCountries: [], reason: null };

export interface LocalRun {
  request: ContextRequest;
  /** Where the result goes (null: standard output); an export's default is chosen once its name is known. */
  out: string | null | ((fileName: string) => string | null);
  progress: Progress;
  io: CommandIo;
  signal: AbortSignal;
}

export async function generateLocal(run: LocalRun): Promise<GenerateOutcome> {
  const config = loadConfig(run.io.env);
  const plan = run.request.export ? prepareExport(run.request) : null; // a 400/422 before any work, as on the server
  await ensureOsmStore(config, (line) => run.progress.note(line), importProgress(run.progress));
  await importPremiumSources(config.premiumSources, config.dataDir, (line) => run.progress.note(line));
  const pool = createTilePool(config);
  const exportPool = plan ? createExportPool({ ...EXPORT_POOL_DEFAULTS, threads: 1 }) : undefined;
  const deps: PipelineDeps = {
    pool,
    exportPool,
    storePath: config.osmStore,
    premiumStorePath: storePaths(config.dataDir).premium,
    tileSize: config.tileSize,
    dem: config.dem,
    canopy: config.canopy,
    groundCache: config.groundCache,
    progress: run.progress,
  };
  try {
    const unpaid = await noSourceDataWarning(run.request, deps);
    const early = unpaid ? [unpaid] : [];
    if (!plan) return await writeGeometry(run, deps, early);
    // the export thread writes the file beside its destination, so it only has to be renamed
    const named = typeof run.out === 'function' ? run.out(`${plan.name}.${plan.format}`) : run.out;
    setExportStagingDir(named === null ? tmpdir() : dirname(named));
    const result = await runExport(run.request, plan, deps, run.signal);
    // the default name is the file's own (OBJ comes as obj.zip, with its materials)
    const out = typeof run.out === 'function' ? run.out(result.fileName) : run.out;
    const bytes = result.file.bytes;
    if (isStaged(bytes)) {
      releaseTemp(bytes.stagedPath);
      if (out === null) {
        const output = openOutput(null, run.io.stdout);
        await pipeline(createReadStream(bytes.stagedPath), output.stream);
        await output.commit();
        await rm(bytes.stagedPath, { force: true });
      } else await moveInto(bytes.stagedPath, out);
    } else {
      const output = openOutput(out, run.io.stdout);
      for (const piece of bytes instanceof Uint8Array ? [bytes] : bytes) output.stream.write(piece);
      output.stream.end();
      await output.commit();
    }
    return {
      file: out,
      downloadUrl: null,
      spatialReference: plan.spatialReference,
      warnings: [...early, ...result.summary.warnings],
      fileName: result.fileName,
    };
  } finally {
    await Promise.all([pool.destroy(), exportPool?.destroy()]);
  }
}

async function writeGeometry(run: LocalRun, deps: PipelineDeps, early: ResponseWarning[]): Promise<GenerateOutcome> {
  const { request } = run;
  const out = typeof run.out === 'function' ? run.out('') : run.out;
  const output = openOutput(out, run.io.stdout);
  try {
    const writer = new GeometryResponseWriter(output.stream, new AnswerBacklog([output.stream], MAX_WAITING_BYTES));
    const spatialReference = spatialReferenceFor({ origin: request.origin, crs: request.settings.crs, upAxis: request.settings.upAxis });
    writer.begin({ origin: request.origin, spatialReference });
    const summary = await runRequest(request, deps, writer, run.signal);
    const warnings = [...early, ...summary.warnings];
    writer.end({ warnings, attributions: summary.attributions, dataAccess: FULL_ACCESS });
    await output.commit();
    return { file: out, downloadUrl: null, spatialReference, warnings };
  } catch (err) {
    await output.abort();
    throw err;
  }
}

/** The store's import, as plain lines (it runs once per data directory). */
function importProgress(progress: Progress) {
  let last = 0;
  return (p: { pass: number; bytesRead: number; totalBytes: number }) => {
    const now = performance.now();
    if (p.bytesRead < p.totalBytes && now - last < 2000) return;
    last = now;
    progress.note(`importing: pass ${p.pass}/2, ${((100 * p.bytesRead) / p.totalBytes).toFixed(0)}%`);
  };
}
