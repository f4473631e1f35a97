/**
 * The export request flow on the main thread: check the format and CRS before any
 * work or billing, run the normal tile pipeline with the output an export needs (local frame,
 * Z up, indexed meshes, terrain as meshes, the ground as `export.surfaceType`) while an export
 * thread takes the groups' chunks as they come and writes the file.
 */
import { rm } from 'node:fs/promises';
import { MessageChannel } from 'node:worker_threads';
import { ApiError } from '../contract/errors.ts';
import type { ContextRequest, ExportFormat } from '../contract/types.ts';
import { utmZoneFor } from '../frame/utm.ts';
import { runRequest, type PipelineDeps, type RunOptions, type RunSummary } from '../pipeline/run-request.ts';
import { ExportStreamSink } from './export-stream.ts';
import { spillPathOf, type ExportOutcome, type ExportTask } from './export-task.ts';
import { exportWriterEntry, EXPORT_WRITERS } from './formats/index.ts';
import { createExportFrame, resolveExportCrs, type ExportFrameOptions } from './georef.ts';
import { float32PlacementError } from './float32-placement.ts';
import type { ExportUnits } from './scene.ts';
import { claimTemp, exportStagingDir, releaseTemp, stagePathIn } from './store/staged.ts';

/** What the programs without an open writer import well (their 422 names these; docs/exports.md). */
const CLOSED_FORMATS: Partial<Record<ExportFormat, { program: string; why: string; imports: ExportFormat[] }>> = {
  skp: { program: 'SketchUp', why: "SketchUp's SDK is closed and runs only on Windows and macOS", imports: ['dae', '3dm', 'dxf', 'ifc', 'stl'] },
  rvt: { program: 'Revit', why: "Revit's file format is closed", imports: ['ifc', 'dxf', '3dm', 'obj', 'stl'] },
};

/** The export's settings once checked: what the file will be and where its coordinates lie. */
export interface ExportPlan {
  format: ExportFormat;
  frame: ExportFrameOptions;
  /** Answer's `spatialReference`. */
  spatialReference: Record<string, unknown>;
  /** File name without extension. */
  name: string;
}

/** 422 for a format without a writer, 400 for an unusable CRS or an absolute placement the format cannot hold: all before admission and billing. */
export function prepareExport(request: ContextRequest): ExportPlan {
  const exp = request.export;
  if (!exp) throw new Error('not an export request');
  const entry = exportWriterEntry(exp.format);
  if (!entry) throw formatUnavailable(exp.format);
  const crs = resolveExportCrs(exportCrsOf(request));
  const units: ExportUnits = entry.fixedUnits ?? exp.units;
  const frame: ExportFrameOptions = { origin: request.origin, crs, placement: exp.placement, units };
  const georef = createExportFrame(frame).georef; // throws 400 when the CRS does not cover the origin
  const lossy = float32PlacementError(exp.format, georef, units);
  if (lossy) throw lossy;
  const spatialReference = {
    crs: crs.crs === 'local' ? 'local' : `EPSG:${crs.crs}`,
    origin: [request.origin[0], request.origin[1]],
    ...(crs.name ? { name: crs.name, proj4: crs.proj4 } : {}),
    placement: exp.placement,
    units,
    originGrid: georef.originGrid,
    gridConvergence: georef.gridConvergence,
  };
  return { format: exp.format, frame, spatialReference, name: fileBaseName(request.origin) };
}

/**
 * `export.crs`, or — when it is `local` (the default) — the CRS `settings.crs` asks of the JSON
 * answer (UTM: the origin's zone), so `settings.crs: "UTM"` gives a UTM file too.
 */
export function exportCrsOf(request: ContextRequest): string {
  const asked = request.export?.crs ?? 'local';
  if (asked !== 'local') return asked;
  if (request.settings.crs === 'UTM') return utmZoneFor(request.origin[0], request.origin[1]).epsg;
  return request.settings.crs; // 'local' or 'EPSG:3857'
}

function formatUnavailable(format: ExportFormat): ApiError {
  const available = Object.keys(EXPORT_WRITERS).join(', ');
  const closed = CLOSED_FORMATS[format];
  const message = closed
    ? `${format} files cannot be written: ${closed.why}. ${closed.program} imports ${closed.imports.join(', ')} well; this server writes ${available}.`
    : `Export format ${format} is not available on this server yet; it writes ${available}.`;
  return new ApiError('format_unavailable', message, [{ path: ['export', 'format'], message: `available: ${available}` }]);
}

/** `city-context-43.7335N-7.4190E`: readable, and says where the file is. */
export function fileBaseName([lat, lon]: readonly [number, number]): string {
  return `city-context-${Math.abs(lat).toFixed(4)}${lat < 0 ? 'S' : 'N'}-${Math.abs(lon).toFixed(4)}${lon < 0 ? 'W' : 'E'}`;
}

/** The request the tiles run for an export: the JSON output options an export reads back. */
export function pipelineRequestFor(request: ContextRequest): ContextRequest {
  const surfaceType = request.export?.surfaceType ?? 'meshes';
  return {
    ...request,
    settings: {
      ...request.settings,
      crs: 'local',
      upAxis: 'Z',
      indexedMeshes: true,
      topographyReturnType: 'meshes',
      surfaceTypes: [surfaceType],
    },
  };
}

export interface ExportResult {
  /** Staged on disk by the export thread when the store gave a staging directory, else bytes. */
  file: ExportOutcome;
  fileName: string;
  summary: RunSummary;
}

/**
 * Starts the writer in an export thread, runs the tiles streaming their groups to it, then lets
 * it finish; rejects on any failure (a failed writer also stops the tiles) or when `signal` aborts.
 */
export async function runExport(
  request: ContextRequest,
  plan: ExportPlan,
  deps: PipelineDeps,
  signal: AbortSignal,
  options: RunOptions = {},
): Promise<ExportResult> {
  const exportPool = deps.exportPool;
  if (!exportPool) throw new Error('exports need the export pool (src/export/export-pool.ts)');
  const cancel = new AbortController();
  const onAbort = () => cancel.abort(signal.reason);
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  const { port1, port2 } = new MessageChannel();
  const stageDir = exportStagingDir();
  const stagePath = stageDir ? stagePathIn(stageDir) : undefined;
  if (stagePath) claimTemp(stagePath); // until the store takes the file over (./store/staged.ts)
  const task: ExportTask = { format: plan.format, frame: plan.frame, name: plan.name, port: port2, ...(stagePath ? { stagePath } : {}) };
  const written = exportPool.run(task, { signal: cancel.signal, transferList: [port2] as never }) as Promise<ExportOutcome>;
  written.catch((err) => cancel.abort(err)); // the tiles stop when the writer fails
  const sink = new ExportStreamSink(port1);
  try {
    const summary = await runRequest(pipelineRequestFor(request), deps, sink, cancel.signal, options);
    sink.end(summary.attributions.map((a) => `${a.text} (${a.license}, ${a.url})`));
    const file = await written;
    return { file, fileName: `${plan.name}.${file.extension}`, summary };
  } catch (err) {
    cancel.abort(err);
    await written.catch(() => {});
    // A stopped thread never ran its own clean-up: what it staged or spilled goes here.
    if (stagePath) {
      await rm(stagePath, { force: true });
      releaseTemp(stagePath);
    }
    throw err;
  } finally {
    port1.close();
    signal.removeEventListener('abort', onAbort);
    if (stagePath) await rm(spillPathOf(stagePath), { force: true });
  }
}
