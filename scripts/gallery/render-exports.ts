/**
 * `npm run gallery:exports [-- outDir] [--no-render]`: every node type's model lined up and
 * labelled (node-gallery.ts), written in every export format and rendered, for a person to look
 * at (docs/trees.md "Models").
 *
 * Writes `<outDir>/city-context-node-gallery.<ext>` through each writer of EXPORT_WRITERS (their
 * public entry, as the export threads call them), `labels.json` (label, type, position: the
 * nodes' names in the files are the same labels), then has Blender (headless, `blender -b`)
 * import the GLB and render it with render-models.py: each row from the front and from behind,
 * labels drawn as text on the ground in front of each model, `<outDir>/models-<row>-<view>.png`.
 * Default outDir ./gallery/exports (git-ignored). `BLENDER` names the Blender binary (default
 * `blender`, 3.4 or later).
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { REPO_ROOT } from '../../src/config.ts';
import type { ExportFormat } from '../../src/contract/types.ts';
import { EXPORT_WRITERS } from '../../src/export/formats/index.ts';
import { isSpilled } from '../../src/export/spill.ts';
import { nodeGallery } from './node-gallery.ts';

const args = process.argv.slice(2);
const render = !args.includes('--no-render');
const rest = args.filter((a) => a !== '--no-render');
if (rest.length > 1 || rest.some((a) => a.startsWith('--'))) {
  console.error('usage: npm run gallery:exports -- [outDir] [--no-render]');
  process.exit(2);
}
// Absolute: Blender is handed the paths.
const outDir = resolve(rest[0] ?? join(REPO_ROOT, 'gallery/exports'));
mkdirSync(outDir, { recursive: true });

const { scene, labels, rows } = nodeGallery();
const nodes = scene.groups.reduce((n, g) => n + g.nodes.length, 0);
console.log(`${nodes} nodes, ${labels.length} labels, ${rows.length} rows`);
let glb: string | null = null;
for (const [format, entry] of Object.entries(EXPORT_WRITERS) as [ExportFormat, NonNullable<(typeof EXPORT_WRITERS)[ExportFormat]>][]) {
  const t0 = performance.now();
  try {
    const write = await entry.load();
    const file = await write(scene);
    const path = join(outDir, `${scene.name}.${file.extension}`);
    const fd = openSync(path, 'w');
    let size = 0;
    try {
      for (const piece of Array.isArray(file.bytes) ? file.bytes : [file.bytes]) {
        // whole scenes written here are never staged, so no piece is spilled to disk
        if (isSpilled(piece)) throw new Error('a spilled piece outside an export thread');
        writeSync(fd, piece);
        size += piece.length;
      }
    } finally {
      closeSync(fd);
    }
    if (format === 'glb') glb = path;
    console.log(`${format.padEnd(5)} ${(size / 1024).toFixed(0).padStart(6)} kB  ${(performance.now() - t0).toFixed(0).padStart(5)} ms  ${path}`);
  } catch (e) {
    console.log(`${format.padEnd(5)} failed: ${(e as Error).message}`);
  }
}
const labelsFile = join(outDir, 'labels.json');
writeFileSync(labelsFile, `${JSON.stringify({ name: 'models', labels, rows }, null, 1)}\n`);
console.log(`labels ${labelsFile}`);

if (render && glb) {
  const t0 = performance.now();
  const log = execFileSync(
    process.env.BLENDER ?? 'blender',
    ['-b', '--factory-startup', '--python-exit-code', '1', '--python', join(REPO_ROOT, 'scripts/gallery/render-models.py'), '--', glb, labelsFile, outDir],
    { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  for (const line of log.split('\n')) if (line.startsWith('render-models:')) console.log(line.slice('render-models: '.length));
  console.log(`rendered in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}
