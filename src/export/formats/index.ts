/**
 * The one place export writers register (issue 10). A format listed here is honoured; any other
 * gets 422 `format_unavailable`. Entries load their writer lazily, so the main thread can ask
 * "is this format available?" without pulling rhino3dm / web-ifc / gltf-transform into it — the
 * writer itself only ever runs in a worker (workers/tile-worker.ts `exportFile`).
 *
 * To add a format: one line below, `<format>: { load: async () => (load('./<format>.ts') as typeof import('./<format>.ts')).write<Format> }`,
 * plus `fixedUnits` when the format's unit is fixed (the scene is then built in those units,
 * whatever `export.units` asked).
 */
import { createRequire } from 'node:module';
import type { ExportFormat } from '../../contract/types.ts';
import type { ExportFile, ExportScene, ExportUnits } from '../scene.ts';

/** A pure writer: scene in, file out (async allowed for WebAssembly writers). */
export type ExportWriter = (scene: ExportScene) => ExportFile | Promise<ExportFile>;

export interface ExportWriterEntry {
  load: () => Promise<ExportWriter>;
  /** The format's only unit (glTF: metres): `export.units` is ignored for it. */
  fixedUnits?: ExportUnits;
}

/** `require`, not `import()`: in worker threads only tsx's require hook compiles TypeScript. */
const load = createRequire(import.meta.url);

export const EXPORT_WRITERS: Partial<Record<ExportFormat, ExportWriterEntry>> = {
  glb: { load: async () => (load('./gltf.ts') as typeof import('./gltf.ts')).writeGlb, fixedUnits: 'm' },
  gltf: { load: async () => (load('./gltf.ts') as typeof import('./gltf.ts')).writeGltf, fixedUnits: 'm' },
  obj: { load: async () => (load('./obj.ts') as typeof import('./obj.ts')).writeObj },
  stl: { load: async () => (load('./stl.ts') as typeof import('./stl.ts')).writeStl },
  ply: { load: async () => (load('./ply.ts') as typeof import('./ply.ts')).writePly },
  dae: { load: async () => (load('./dae.ts') as typeof import('./dae.ts')).writeDae },
  dxf: { load: async () => (load('./dxf.ts') as typeof import('./dxf.ts')).writeDxf },
  '3dm': { load: async () => (load('./rhino3dm.ts') as typeof import('./rhino3dm.ts')).writeRhino3dm },
  ifc: { load: async () => (load('./ifc.ts') as typeof import('./ifc.ts')).writeIfc },
};

/** The entry of a format, or null when no writer is registered. */
export function exportWriterEntry(format: ExportFormat): ExportWriterEntry | null {
  return EXPORT_WRITERS[format] ?? null;
}
