/**
 * The export pool's task entry (src/export/export-pool.ts): an export's tile groups in, the
 * finished file out (src/export/export-task.ts). Only export threads load writer code.
 */
import './thread-globals.ts';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { buildExportFile, type ExportTask } from '../src/export/export-task.ts';
import type { FinishedExport } from '../src/export/scene.ts';

export default async function runExportTask(task: ExportTask): Promise<FinishedExport> {
  const file = await buildExportFile(task);
  // Hand the bytes (or every big piece) over without a copy where they own their whole buffer (never a
  // pooled Buffer's slab); small pieces are copied, so a writer's shared constant is never taken away.
  const owned = new Set<ArrayBuffer>();
  for (const b of Array.isArray(file.bytes) ? file.bytes : [file.bytes]) {
    if (b.buffer instanceof ArrayBuffer && b.byteOffset === 0 && b.byteLength === b.buffer.byteLength && b.byteLength >= 1 << 16) owned.add(b.buffer);
  }
  if (!owned.size) return file;
  return move({
    get [transferableSymbol]() { return [...owned]; },
    get [valueSymbol]() { return file; },
  } as never) as unknown as FinishedExport;
}
