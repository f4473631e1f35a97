/**
 * The main thread's side of an export stream: the tiles' groups go to the export thread as they
 * arrive (a MessagePort given to the export task, src/export/export-task.ts), instead of being
 * collected and sent once every tile is done. Chunk buffers are transferred, not copied.
 */
import type { MessagePort } from 'node:worker_threads';
import type { GroupSink } from '../pipeline/group-sink.ts';
import { exportTargetOf, type ExportTarget } from './scene-from-tiles.ts';

/** What travels over the export port, in this order: every `declare`, the `chunk`s, one `end`. */
export type ExportMessage =
  | { kind: 'declare'; key: string; target: ExportTarget | null }
  | { kind: 'chunk'; key: string; json: Uint8Array }
  | { kind: 'end'; attribution: string[] };

export class ExportStreamSink implements GroupSink {
  /** Tiles in task order, so the same request writes the same bytes (docs/exports.md "Repeatable files"). */
  readonly ordered = true;

  constructor(private readonly port: MessagePort) {}

  /** Sends the output's export target as the main thread's group table has it (families register there and in the tile workers). */
  declare(key: string): void {
    this.post({ kind: 'declare', key, target: exportTargetOf(key) });
  }

  chunk(key: string, json: Uint8Array, count: number): void {
    if (count === 0 || json.length === 0) return;
    // a view into a larger buffer is copied (transferring would take the whole buffer away)
    const owned = json.buffer instanceof ArrayBuffer && json.byteOffset === 0 && json.byteLength === json.buffer.byteLength;
    const bytes = owned ? json : json.slice();
    this.port.postMessage({ kind: 'chunk', key, json: bytes } satisfies ExportMessage, [bytes.buffer as ArrayBuffer]);
  }

  done(): void {}

  /** Every tile is in: the writer may finish. */
  end(attribution: string[]): void {
    this.post({ kind: 'end', attribution });
  }

  private post(m: ExportMessage): void {
    this.port.postMessage(m);
  }
}
