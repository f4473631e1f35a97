import type { Writable } from 'node:stream';
import type { GroupSink } from '../pipeline/group-sink.ts';
import type { AnswerBacklog } from './answer-backlog.ts';

interface GroupState {
  name: string;
  header: string;
  pending: { json: Uint8Array; count: number }[];
  /** Items already written to the output. */
  writtenItems: number;
  finished: boolean;
  written: boolean;
}

const COMMA = Buffer.from(',');

/**
 * Writes the Geometry response incrementally (docs/design.md "Streaming"): `origin` and
 * `spatialReference` first, then each geometry group — one group is open at a time and receives
 * its tiles' items as they arrive, the others wait in memory — then `warnings`, `attributions`
 * and `dataAccess`. Groups appear in the order they start to arrive. With a `backlog`, the
 * request's tiles wait while more than its bound waits for the client (answer-backlog.ts).
 */
export class GeometryResponseWriter implements GroupSink {
  private groups = new Map<string, GroupState>();
  private open: GroupState | null = null;
  private groupsWritten = 0;

  constructor(
    private readonly out: Writable,
    private readonly backlog?: AnswerBacklog,
  ) {}

  whenRoom(): Promise<void> | null {
    return this.backlog?.whenRoom() ?? null;
  }

  begin(head: { origin: [number, number]; spatialReference: unknown }): void {
    this.out.write(`{"origin":${JSON.stringify(head.origin)},"spatialReference":${JSON.stringify(head.spatialReference)},"geometry":[`);
  }

  declare(key: string, type: string, geometryType: string): void {
    this.groups.set(key, {
      name: key,
      header: `{"type":${JSON.stringify(type)},"geometryType":${JSON.stringify(geometryType)},${JSON.stringify(geometryType)}:[`,
      pending: [],
      writtenItems: 0,
      finished: false,
      written: false,
    });
  }

  chunk(name: string, json: Uint8Array, count: number): void {
    const g = this.groups.get(name);
    if (!g || g.finished) throw new Error(`chunk for unknown or finished group ${name}`);
    if (count === 0 || json.length === 0) return;
    if (!this.open) this.openGroup(g);
    if (this.open === g) this.writeItems(g, json, count);
    else g.pending.push({ json, count });
  }

  done(name: string): void {
    const g = this.groups.get(name);
    if (!g) throw new Error(`unknown group ${name}`);
    g.finished = true;
    if (this.open === g) this.closeOpen();
  }

  /**
   * Writes every remaining group and the tail of the document: `warnings` (always present, empty
   * when all is well; docs/design.md "Warnings"), `attributions`, `dataAccess`. Call once all groups are done.
   */
  end(tail: { warnings?: unknown[]; attributions: unknown; dataAccess: unknown }): void {
    for (const g of this.groups.values()) {
      if (!g.finished) throw new Error(`group ${g.name} is not finished`);
      if (!g.written) this.openGroup(g); // finished groups close themselves
    }
    this.out.end(
      `],"warnings":${JSON.stringify(tail.warnings ?? [])},"attributions":${JSON.stringify(tail.attributions)},"dataAccess":${JSON.stringify(tail.dataAccess)}}`,
    );
  }

  private openGroup(g: GroupState): void {
    this.out.write((this.groupsWritten > 0 ? ',' : '') + g.header);
    this.groupsWritten++;
    g.written = true;
    this.open = g;
    const pending = g.pending;
    g.pending = [];
    for (const p of pending) this.writeItems(g, p.json, p.count);
    if (g.finished) this.closeOpen();
  }

  private writeItems(g: GroupState, json: Uint8Array, count: number): void {
    if (g.writtenItems > 0) this.out.write(COMMA);
    this.out.write(json);
    g.writtenItems += count;
  }

  private closeOpen(): void {
    this.out.write(']}');
    this.open = null;
    // Next: a finished group first (it can be written whole), else one with waiting items.
    const next =
      [...this.groups.values()].find((g) => !g.written && g.finished && g.pending.length > 0) ??
      [...this.groups.values()].find((g) => !g.written && g.pending.length > 0);
    if (next) this.openGroup(next);
  }
}
