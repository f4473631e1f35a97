/**
 * Progress of a `generate` run on stderr: a bar redrawn in place when stderr is a terminal, else a
 * plain line now and then (logs, CI) — always one when the tiles start and one at the end, so even
 * a quick run says what it did. Tiles and groups are known only in-process; a run against a
 * server (`--url`) sees bytes only.
 */
import type { PipelineProgress } from '../pipeline/run-request.ts';
import type { CommandIo } from './command.ts';

export interface ProgressOptions {
  /** Redraw one line in place (stderr is a terminal). */
  tty: boolean;
  /** Print nothing but notes (`--quiet`). */
  quiet: boolean;
  /** Between two plain lines, ms (terminal: between redraws). */
  everyMs: number;
}

const BAR_WIDTH = 24;

export class Progress implements PipelineProgress {
  private tilesPlanned = 0;
  private tilesDone = 0;
  private groupKeys: readonly string[] = [];
  private readonly filled = new Set<string>();
  private byteCount = 0;
  private readonly started = performance.now();
  private timer: NodeJS.Timeout | null = null;
  private barShown = false;
  private lastLine = '';

  constructor(
    private readonly io: CommandIo,
    private readonly options: ProgressOptions,
  ) {}

  /** A message for the user, on its own line (the bar is redrawn below it). */
  note(line: string): void {
    this.clearBar();
    this.io.stderr.write(`${line}\n`);
    if (this.timer && this.options.tty) this.draw();
  }

  groups(keys: readonly string[]): void {
    this.groupKeys = keys;
  }

  planned(count: number): void {
    const first = this.tilesPlanned === 0;
    this.tilesPlanned += count;
    if (first) this.start();
  }

  tileDone(keys: readonly string[], bytes: number): void {
    this.tilesDone++;
    for (const k of keys) this.filled.add(k);
    this.bytes(bytes);
  }

  /** Bytes of geometry made (in-process) or received (from a server). */
  bytes(n: number): void {
    this.byteCount += n;
    if (this.timer === null && n > 0) this.start();
  }

  /** Starts the periodic output (the first tiles were planned, or the first bytes came). */
  start(): void {
    if (this.timer || this.options.quiet) return;
    if (this.options.tty) this.draw();
    else this.line();
    this.timer = setInterval(() => (this.options.tty ? this.draw() : this.line()), this.options.everyMs);
    this.timer.unref();
  }

  /** The last state (`failed`: the run did not finish), then no more output from here. */
  stop(failed = false): void {
    if (this.timer) clearInterval(this.timer);
    const started = this.timer !== null;
    this.timer = null;
    if (!started || this.options.quiet) return;
    if (this.options.tty) {
      this.draw();
      this.io.stderr.write('\n');
      this.barShown = false;
    } else this.line(failed ? 'stopped' : 'done');
  }

  /** `tiles 3/8, groups 2/6, 1.2 MB, 0.8 s` (what is known so far). */
  status(): string {
    const parts: string[] = [];
    if (this.tilesPlanned > 0) parts.push(`tiles ${this.tilesDone}/${this.tilesPlanned}`);
    if (this.groupKeys.length > 0) parts.push(`groups ${this.filled.size}/${this.groupKeys.length}`);
    parts.push(sizeText(this.byteCount), `${((performance.now() - this.started) / 1000).toFixed(1)} s`);
    return parts.join(', ');
  }

  private line(final?: 'done' | 'stopped'): void {
    const text = `progress: ${this.status()}${final ? ` (${final})` : ''}`;
    // a stalled run repeats nothing but the clock: one line per change, and the last one
    const key = text.replace(/, [\d.]+ s\b.*/, '');
    if (!final && key === this.lastLine) return;
    this.lastLine = key;
    this.io.stderr.write(`${text}\n`);
  }

  private draw(): void {
    const share = this.tilesPlanned > 0 ? Math.min(1, this.tilesDone / this.tilesPlanned) : 0;
    const full = Math.round(share * BAR_WIDTH);
    const bar = this.tilesPlanned > 0 ? `[${'#'.repeat(full)}${'.'.repeat(BAR_WIDTH - full)}] ` : '';
    const columns = this.io.stderr.columns ?? 80;
    this.io.stderr.write(`\r\x1b[K${`${bar}${this.status()}`.slice(0, columns - 1)}`);
    this.barShown = true;
  }

  private clearBar(): void {
    if (!this.barShown) return;
    this.io.stderr.write('\r\x1b[K');
    this.barShown = false;
  }
}

/** 512 KB, 12.3 MB. */
export function sizeText(bytes: number): string {
  return bytes < 1048576 ? `${Math.round(bytes / 1024)} KB` : `${(bytes / 1048576).toFixed(1)} MB`;
}
