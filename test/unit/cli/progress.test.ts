/** The progress of `generate` on stderr: plain lines in a log, a bar redrawn in place on a terminal. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CommandIo } from '../../../src/cli/command.ts';
import { Progress, sizeText } from '../../../src/cli/progress.ts';

/** An io whose stderr is a string; the interval is long enough never to fire during a test. */
function capture(tty: boolean, quiet = false) {
  let text = '';
  const stream = { isTTY: tty, columns: 60, write: (s: string) => ((text += s), true) } as unknown as CommandIo['stderr'];
  const io = { stdout: stream, stderr: stream, env: {} } as CommandIo;
  return { progress: new Progress(io, { tty, quiet, everyMs: 3_600_000 }), text: () => text };
}

/** A request's run as the pipeline tells it: 3 groups, 2 tiles then 1 more (terrain's next round). */
function feed(progress: Progress): void {
  progress.groups(['buildings', 'surface', 'topography:meshes']);
  progress.planned(2);
  progress.tileDone(['buildings'], 600 * 1024);
  progress.note('a note');
  progress.planned(1);
  progress.tileDone(['buildings', 'surface'], 900 * 1024);
  progress.tileDone([], 0);
  progress.stop();
}

test('not a terminal: a plain line when the tiles start and one at the end with every tile; notes on their own lines', () => {
  const { progress, text } = capture(false);
  feed(progress);
  const lines = text().trimEnd().split('\n');
  assert.equal(lines.length, 3);
  assert.match(lines[0], /^progress: tiles 0\/2, groups 0\/3, 0 KB, [\d.]+ s$/);
  assert.equal(lines[1], 'a note');
  assert.match(lines[2], /^progress: tiles 3\/3, groups 2\/3, 1\.5 MB, [\d.]+ s \(done\)$/);
  assert.ok(!text().includes('\r') && !text().includes('\x1b'), 'no terminal control');
});

test('a terminal: one line redrawn in place, cut to the width, cleared for a note, ended with a new line', () => {
  const { progress, text } = capture(true);
  feed(progress);
  const out = text();
  assert.ok(out.startsWith('\r\x1b[K[........................] tiles 0/2'), JSON.stringify(out.slice(0, 60)));
  assert.ok(out.includes('\r\x1b[Ka note\n'), 'the bar cleared before the note');
  const last = out.trimEnd().split('\r\x1b[K').at(-1)!;
  assert.ok(last.startsWith('[########################] tiles 3/3'), last);
  assert.ok(out.endsWith('\n'));
  for (const drawn of out.split('\r\x1b[K').slice(1)) assert.ok(drawn.replace(/\n$/, '').length <= 59, `within 60 columns: ${drawn}`);
});

test('quiet: notes only; a run that never started prints no last line', () => {
  const quiet = capture(false, true);
  feed(quiet.progress);
  assert.equal(quiet.text(), 'a note\n');
  const idle = capture(false);
  idle.progress.stop(true);
  assert.equal(idle.text(), '');
  assert.deepEqual([sizeText(0), sizeText(1023 * 1024), sizeText(1048576 * 12.34)], ['0 KB', '1023 KB', '12.3 MB']);
});
