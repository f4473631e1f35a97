/**
 * The worker side of an export (the export pool's task, workers/export-worker.ts): the tiles'
 * encoded groups in, the finished file out. Building the scene and writing the file can take
 * seconds on 10 km², so it never runs on the main thread.
 */
import { move, transferableSymbol, valueSymbol } from 'piscina';
import type { ExportFormat } from '../contract/types.ts';
import { exportWriterEntry } from './formats/index.ts';
import { createExportFrame, type ExportFrameOptions } from './georef.ts';
import type { ExportFile } from './scene.ts';
import { sceneFromTiles, type SceneInput } from './scene-from-tiles.ts';

export interface ExportTask {
  format: ExportFormat;
  frame: ExportFrameOptions;
  scene: SceneInput;
}

export async function buildExportFile(task: ExportTask): Promise<ExportFile> {
  const entry = exportWriterEntry(task.format);
  if (!entry) throw new Error(`no writer is registered for ${task.format}`);
  const scene = sceneFromTiles(task.scene, createExportFrame(task.frame));
  const file = await (await entry.load())(scene);
  const b = file.bytes;
  // hand the bytes over without a copy when they own their whole buffer (never a pooled Buffer's slab)
  if (!(b.buffer instanceof ArrayBuffer) || b.byteOffset !== 0 || b.byteLength !== b.buffer.byteLength) return file;
  return move({
    get [transferableSymbol]() { return [b.buffer]; },
    get [valueSymbol]() { return file; },
  } as never) as unknown as ExportFile;
}
