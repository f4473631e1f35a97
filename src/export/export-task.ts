/**
 * The export thread's side of an export (the export pool's task, workers/export-worker.ts): the
 * tiles' groups arrive over a MessagePort while the tiles still run (src/export/export-stream.ts);
 * each chunk is parsed at once — into the scene, or for a streaming writer (3dm, IFC, DXF, DAE,
 * OBJ) straight into the file — so that work overlaps the tiles instead of following them and
 * the scene is never held whole. At `end` the writer finishes. With a staging directory the
 * thread writes the file there itself (./stage-file.ts; text spilled on the way: ./spill.ts).
 */
import type { MessagePort } from 'node:worker_threads';
import type { ExportFormat } from '../contract/types.ts';
import type { ExportMessage } from './export-stream.ts';
import { exportWriterEntry, type StreamingWriter } from './formats/index.ts';
import { createExportFrame, type ExportFrameOptions } from './georef.ts';
import type { FinishedExport } from './scene.ts';
import { SceneBuilder } from './scene-from-tiles.ts';
import { isSpilled, setActiveSpill, Spill } from './spill.ts';
import { writeStagedFile } from './stage-file.ts';
import type { ExportBytes } from './store/types.ts';

export interface ExportTask {
  format: ExportFormat;
  frame: ExportFrameOptions;
  /** File base name. */
  name: string;
  /** Every `declare`, then the chunks, then `end` (src/export/export-stream.ts). */
  port: MessagePort;
  /**
   * Where to write the file (in the store's staging directory, ./store/staged.ts; its spill goes
   * next to it, `<stagePath>.spill`); without it the bytes are handed back. The main thread names
   * both, so it can remove them when this thread is stopped mid-write.
   */
  stagePath?: string;
}

/** What leaves the export thread: the file staged on disk, or its bytes. */
export interface ExportOutcome {
  bytes: ExportBytes;
  extension: string;
  contentType: string;
}

export async function buildExportFile(task: ExportTask): Promise<ExportOutcome> {
  const entry = exportWriterEntry(task.format);
  if (!entry) throw new Error(`no writer is registered for ${task.format}`);
  // the writer's code loads while the first tiles run
  const openStream = entry.stream ? await entry.stream() : null;
  let stream: StreamingWriter | null = null;
  const frame = createExportFrame(task.frame);
  const builder = new SceneBuilder(frame, openStream ? (group, it) => stream!.add(group, it) : undefined);
  const head = () => ({ name: task.name, units: frame.units, georef: frame.georef, groups: builder.groupNames() });
  let file: FinishedExport;
  const stagePath = task.stagePath;
  const spill = stagePath ? new Spill(spillPathOf(stagePath)) : null;
  setActiveSpill(spill);
  try {
    const attribution = await receive(task.port, async (m) => {
      if (m.kind === 'declare') return void builder.declare(m.key, m.target);
      // every declare came first: the streaming document can lay out its groups now
      if (openStream && !stream) stream = await openStream(head());
      builder.add(m.key, m.json);
    });
    if (openStream && !stream) stream = await openStream(head());
    const scene = builder.finish(task.name, attribution);
    file = stream ? await stream.finish(scene) : await (await entry.load())(scene);
    if (stagePath) return { ...file, bytes: writeStagedFile(stagePath, file.bytes) };
    return { ...file, bytes: inMemory(file.bytes) };
  } catch (err) {
    (stream as StreamingWriter | null)?.abort();
    throw err;
  } finally {
    task.port.close();
    setActiveSpill(null);
    spill?.dispose();
  }
}

/** The spill file of the export staged at `stagePath`. */
export function spillPathOf(stagePath: string): string {
  return `${stagePath}.spill`;
}

/** Without a staging directory nothing was spilled: the pieces are bytes. */
function inMemory(bytes: FinishedExport['bytes']): Uint8Array | Uint8Array[] {
  if (bytes instanceof Uint8Array) return bytes;
  return bytes.map((p) => {
    if (isSpilled(p)) throw new Error('a spilled piece without a staged file');
    return p;
  });
}

/** Handles messages one at a time, in order; resolves with the attribution at `end`, rejects if the port closes first. */
async function receive(port: MessagePort, handle: (m: Exclude<ExportMessage, { kind: 'end' }>) => Promise<void>): Promise<string[]> {
  const queue: ExportMessage[] = [];
  let wake: (() => void) | null = null;
  let closed = false;
  const onMessage = (m: ExportMessage) => {
    queue.push(m);
    wake?.();
  };
  const onClose = () => {
    closed = true;
    wake?.();
  };
  port.on('message', onMessage);
  port.once('close', onClose);
  try {
    for (let next = 0; ; ) {
      while (next < queue.length) {
        const m = queue[next];
        queue[next++] = undefined as never; // let each chunk's bytes go once handled
        if (m.kind === 'end') return m.attribution;
        await handle(m);
      }
      if (closed) throw new Error('the export stream closed before its end');
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = null;
    }
  } finally {
    port.off('message', onMessage);
    port.off('close', onClose);
  }
}
