/**
 * The export pool's task entry (src/export/export-pool.ts): an export's tile groups in, the
 * finished file out (src/export/export-task.ts). Only export threads load writer code.
 *
 * After each export, one full garbage collection (a timer: the result is handed over first): the
 * thread's heap is small and idle, so nothing else would collect what the export left — the
 * parse garbage — and it would sit under the thread's next export (dense city, formats in a
 * row: 15–90 MB lower peaks with it).
 */
import './thread-globals.ts';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { buildExportFile, type ExportOutcome, type ExportTask } from '../src/export/export-task.ts';
import { startFullGc } from '../src/export/full-gc.ts';
import { isStaged } from '../src/export/store/staged.ts';

export default async function runExportTask(task: ExportTask): Promise<ExportOutcome> {
  let file: ExportOutcome;
  try {
    file = await buildExportFile(task);
  } finally {
    setTimeout(startFullGc, 0).unref();
  }
  const owned = ownedBuffers(file);
  if (!owned.length) return file;
  return move({
    get [transferableSymbol]() {
      return owned;
    },
    get [valueSymbol]() {
      return file;
    },
  } as never) as unknown as ExportOutcome;
}

/**
 * The buffers that can be handed over without a copy: those a big piece owns whole (never a pooled
 * Buffer's slab); small pieces are copied, so a writer's shared constant is never taken away.
 */
function ownedBuffers(file: ExportOutcome): ArrayBuffer[] {
  if (isStaged(file.bytes)) return []; // written to disk: only its name goes
  const owned = new Set<ArrayBuffer>();
  for (const b of file.bytes instanceof Uint8Array ? [file.bytes] : file.bytes) {
    if (b.buffer instanceof ArrayBuffer && b.byteOffset === 0 && b.byteLength === b.buffer.byteLength && b.byteLength >= 1 << 16) owned.add(b.buffer);
  }
  return [...owned];
}
