/**
 * The export pool's task entry (src/export/export-pool.ts): an export's tile groups in, the
 * finished file out (src/export/export-task.ts). Only export threads load writer code.
 *
 * After each export, one full garbage collection (a timer: the result is handed over first): the
 * thread's heap is small and idle, so nothing else would collect what the export left — the
 * parse garbage — and it would sit under the thread's next export (dense city, formats in a
 * row: 15–90 MB lower peaks with it).
 *
 * A 3dm runs in a thread of its own that exits when its file is written: rhino3dm's WebAssembly
 * memory (~290 MB dense) outlived every forced collection — V8 let it go only in a
 * memory-reducing collection ~8 s later, or with the next export's work — and sat under the next
 * export (an IFC after a 3dm peaked ~250 MB higher). A thread's exit returns it at once; the
 * thread starts while the first tiles run (~0.1 s).
 */
import './thread-globals.ts';
import { fileURLToPath } from 'node:url';
import { parentPort, Worker, workerData } from 'node:worker_threads';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { buildExportFile, type ExportOutcome, type ExportTask } from '../src/export/export-task.ts';
import { startFullGc } from '../src/export/full-gc.ts';
import { isStaged } from '../src/export/store/staged.ts';
import { MODULE_EXT } from '../src/module-ext.ts';

/** workerData key of a thread started for one export (`ownThread`). */
const OWN_THREAD = 'cityContextExportTask';

export default async function runExportTask(task: ExportTask): Promise<ExportOutcome> {
  let file: ExportOutcome;
  try {
    file = task.format === '3dm' ? await ownThread(task) : await buildExportFile(task);
  } finally {
    setTimeout(startFullGc, 0).unref();
  }
  const owned = ownedBuffers(file);
  if (!owned.length) return file;
  return move({
    get [transferableSymbol]() { return owned; },
    get [valueSymbol]() { return file; },
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

/**
 * Runs one export in a new thread (this file again) and resolves once that thread is gone, so its
 * memory is back before the answer goes (~40 ms after the file) and never overlaps the next export.
 */
function ownThread(task: ExportTask): Promise<ExportOutcome> {
  return new Promise((resolve, reject) => {
    // from source (tests) a nested thread gets no loader hooks: tsx's require hook compiles it
    const entry = MODULE_EXT === '.ts'
      ? `require('tsx/cjs/api').register(); require(${JSON.stringify(fileURLToPath(import.meta.url))})`
      : `import(${JSON.stringify(import.meta.url)})`;
    const worker = new Worker(entry, { eval: true, workerData: { [OWN_THREAD]: task }, transferList: [task.port as never] });
    let answer: { file?: ExportOutcome; error?: unknown } | undefined;
    worker.once('message', (m: { file?: ExportOutcome; error?: unknown }) => { answer = m; });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (answer?.file) resolve(answer.file);
      else reject(answer?.error ?? new Error(`the export thread exited (code ${code}) before its file was written`));
    });
  });
}

const own = (workerData as Record<string, ExportTask> | null)?.[OWN_THREAD];
if (own && parentPort) {
  const port = parentPort;
  // exit at once, not when the event loop has drained (~0.2 s later): the memory goes with the thread
  buildExportFile(own).then(
    (file) => port.postMessage({ file }, ownedBuffers(file)),
    (error: unknown) => port.postMessage({ error }),
  ).finally(() => process.exit(0));
}
