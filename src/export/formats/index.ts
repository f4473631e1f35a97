/**
 * The one place export writers register. A format listed here is honoured; any other
 * gets 422 `format_unavailable`. Entries load their writer lazily, so the main thread can ask
 * "is this format available?" without pulling any writer's code into it — the writer itself
 * only ever runs in an export thread (src/export/export-pool.ts). Every writer is our own
 * TypeScript; web-ifc, rhino3dm and @gltf-transform/core only read the files back in the tests.
 *
 * To add a format: one line below, `<format>: { load: async () => (await load<typeof import('./<format>.ts')>('<format>')).write<Format> }`,
 * plus `fixedUnits` when the format's unit is fixed (the scene is then built in those units,
 * whatever `export.units` asked).
 */
import { createRequire } from 'node:module';
import type { ExportFormat } from '../../contract/types.ts';
import { MODULE_EXT } from '../../module-ext.ts';
import type { ExportFile, ExportGroupName, ExportScene, ExportSceneHead, ExportUnits, FinishedExport } from '../scene.ts';
import type { SceneItem } from '../scene-from-tiles.ts';

/** A pure writer: scene in, file out, whole or in pieces (async allowed). */
export type ExportWriter = (scene: ExportScene) => ExportFile | FinishedExport | Promise<ExportFile | FinishedExport>;

/** A writer that takes features one by one while the tiles still run (src/export/export-task.ts), then writes. */
export interface StreamingWriter {
  add(group: ExportGroupName, it: SceneItem): void;
  /** `scene` carries name, units, georef and attribution; its groups are empty (the items came through `add`). */
  finish(scene: ExportScene): FinishedExport | Promise<FinishedExport>;
  abort(): void;
}

export interface ExportWriterEntry {
  load: () => Promise<ExportWriter>;
  /**
   * Formats that take features as they arrive, so that work overlaps the tiles and neither the
   * scene nor the whole file is held at once (3dm, IFC, DXF, DAE, OBJ: each feature becomes
   * bytes when it comes).
   */
  stream?: () => Promise<(head: ExportSceneHead) => StreamingWriter | Promise<StreamingWriter>>;
  /** The format's only unit (glTF: metres): `export.units` is ignored for it. */
  fixedUnits?: ExportUnits;
}

const requireTs = createRequire(import.meta.url);

/**
 * A writer module by name. From source, `require`, not `import()`: in worker threads only tsx's
 * require hook compiles TypeScript. Compiled (`dist/`), `import()`: the modules are ES modules.
 */
async function load<M>(name: string): Promise<M> {
  return (MODULE_EXT === '.ts' ? requireTs(`./${name}.ts`) : await import(`./${name}.js`)) as M;
}

export const EXPORT_WRITERS: Partial<Record<ExportFormat, ExportWriterEntry>> = {
  glb: { load: async () => (await load<typeof import('./gltf.ts')>('gltf')).glbPieces, fixedUnits: 'm' },
  gltf: { load: async () => (await load<typeof import('./gltf.ts')>('gltf')).gltfPieces, fixedUnits: 'm' },
  obj: {
    load: async () => (await load<typeof import('./obj.ts')>('obj')).writeObj,
    stream: async () => (await load<typeof import('./obj.ts')>('obj')).openObjStream,
  },
  stl: { load: async () => (await load<typeof import('./stl.ts')>('stl')).writeStl },
  ply: { load: async () => (await load<typeof import('./ply.ts')>('ply')).writePly },
  dae: {
    load: async () => (await load<typeof import('./dae.ts')>('dae')).writeDae,
    stream: async () => (await load<typeof import('./dae.ts')>('dae')).openDaeStream,
  },
  dxf: {
    load: async () => (await load<typeof import('./dxf.ts')>('dxf')).writeDxf,
    stream: async () => (await load<typeof import('./dxf.ts')>('dxf')).openDxfStream,
  },
  '3dm': {
    load: async () => (await load<typeof import('./rhino3dm.ts')>('rhino3dm')).writeRhino3dm,
    stream: async () => (await load<typeof import('./rhino3dm.ts')>('rhino3dm')).openRhino3dmStream,
  },
  ifc: {
    load: async () => (await load<typeof import('./ifc.ts')>('ifc')).writeIfc,
    stream: async () => (await load<typeof import('./ifc.ts')>('ifc')).openIfcStream,
  },
};

/** The entry of a format, or null when no writer is registered. */
export function exportWriterEntry(format: ExportFormat): ExportWriterEntry | null {
  return EXPORT_WRITERS[format] ?? null;
}
