/**
 * The rhino3dm WebAssembly module of the 3dm exports of one thread, and release of the wasm-side
 * objects an export creates. embind objects are not garbage collected, and WebAssembly memory
 * never shrinks, so a long-lived export thread must free what it creates:
 *
 * - table wrappers (`doc.objects()`, `doc.layers()`, …) hold the whole model alive, and their own
 *   `delete(id)` method shadows embind's `delete()`: `free` calls embind's directly;
 * - the module's memory keeps its high-water mark (~300 MB on a dense 10 km² 3dm: the document
 *   and the archive OpenNURBS serialises into), and OpenNURBS keeps ~1.5 kB per object written
 *   even after the document is freed. So each export takes a fresh instance, started as soon as
 *   the writer loads (~50 ms, while the first tiles run), and drops it when done. A dropped
 *   instance's memory outlives forced collections (V8 frees it only in a memory-reducing one,
 *   seconds later), so in the service each 3dm runs in a thread of its own that exits when the
 *   file is written (workers/export-worker.ts): the memory goes with the thread, at once.
 */
import rhino3dm, { type RhinoModule } from 'rhino3dm';

/** An instance made ahead for the next export (V8 keeps the compiled code: only instantiation repeats). */
let next: Promise<RhinoModule> | undefined;

/** Starts the next export's instance early (errors surface when it is taken). */
export function prepareRhinoModule(): void {
  next ??= rhino3dm();
  next.catch(() => {});
}

/** A fresh instance for one export: nothing else holds it, so it goes once the export lets go of it. */
export function rhinoModule(): Promise<RhinoModule> {
  const m = next ?? rhino3dm();
  next = undefined;
  return m;
}


interface EmbindHandle { isDeleted(): boolean; delete(): void }

/** Frees embind objects through embind's own `delete()`, even where a class shadows it. */
export function free(...objects: unknown[]): void {
  for (const o of objects) {
    if (!o || typeof o !== 'object') continue;
    let proto = Object.getPrototypeOf(o);
    while (proto && !Object.prototype.hasOwnProperty.call(proto, 'isDeleted')) proto = Object.getPrototypeOf(proto);
    const handle = proto as EmbindHandle | null;
    if (handle && !handle.isDeleted.call(o)) handle.delete.call(o);
  }
}
