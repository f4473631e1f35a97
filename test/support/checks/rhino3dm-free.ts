/**
 * Release of the rhino3dm (OpenNURBS in WebAssembly) objects a test creates while reading a 3dm
 * back: embind objects are not garbage collected, and table wrappers (`doc.objects()`,
 * `doc.layers()`, …) hold the whole model alive while their own `delete(id)` method shadows
 * embind's `delete()`, so `free` calls embind's directly.
 */

interface EmbindHandle {
  isDeleted(): boolean;
  delete(): void;
}

/** Frees embind objects through embind's own `delete()`, even where a class shadows it. */
export function free(...objects: unknown[]): void {
  for (const o of objects) {
    if (!o || typeof o !== 'object') continue;
    let proto = Object.getPrototypeOf(o);
    while (proto && !Object.hasOwn(proto, 'isDeleted')) proto = Object.getPrototypeOf(proto);
    const handle = proto as EmbindHandle | null;
    if (handle && !handle.isDeleted.call(o)) handle.delete.call(o);
  }
}
