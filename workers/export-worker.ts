/**
 * The export pool's task entry (src/export/export-pool.ts): an export's tile groups in, the
 * finished file out (src/export/export-task.ts). Only export threads load writer code.
 */
import './thread-globals.ts';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { buildExportFile, type ExportTask } from '../src/export/export-task.ts';
import type { ExportFile } from '../src/export/scene.ts';

export default async function runExportTask(task: ExportTask): Promise<ExportFile> {
  const file = await buildExportFile(task);
  const b = file.bytes;
  // hand the bytes over without a copy when they own their whole buffer (never a pooled Buffer's slab)
  if (!(b.buffer instanceof ArrayBuffer) || b.byteOffset !== 0 || b.byteLength !== b.buffer.byteLength) return file;
  return move({
    get [transferableSymbol]() { return [b.buffer]; },
    get [valueSymbol]() { return file; },
  } as never) as unknown as ExportFile;
}
