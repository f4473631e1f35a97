/**
 * `npm run gallery:scenes [-- outDir] [--only name,name] [--keep-glb]`: pictures of whole scenes
 * as a designer sees them, for a person to look at (docs/development.md "Looking at the model").
 *
 * For each scene of scenes.ts — Monaco with terrain (the bundled sample), an Andorra-like town on
 * a synthetic steep valley, the dense city — starts the real service on a scratch data
 * directory, downloads the GLB export a user would get (`POST /v1/context` with `export`), and has
 * Blender (headless, `blender -b`) render it from a bird's-eye oblique, a closer oblique, a street
 * and straight down (the request polygon drawn in red) with render-scene.py, writing `<outDir>/<scene>-<view>.png` (default
 * ./gallery/scenes, git-ignored). `BLENDER` names the Blender binary (default `blender`, 3.4 or
 * later).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { REPO_ROOT } from '../../src/config.ts';
import { createLocalFrame } from '../../src/frame/local-frame.ts';
import { exportScene } from './scene-export.ts';
import { SCENES } from './scenes.ts';

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const k = args.indexOf(name);
  return k < 0 ? undefined : args.splice(k, 2)[1];
};
const keepGlb = args.includes('--keep-glb');
if (keepGlb) args.splice(args.indexOf('--keep-glb'), 1);
const only = flag('--only')?.split(',');
// Absolute: Blender is handed the paths.
const outDir = resolve(args[0] ?? join(REPO_ROOT, 'gallery/scenes'));
const unknown = (only ?? []).filter((name) => !(name in SCENES));
if (unknown.length > 0 || args.length > 1) {
  console.error(`usage: npm run gallery:scenes -- [outDir] [--only ${Object.keys(SCENES).join(',')}] [--keep-glb]`);
  process.exit(2);
}

mkdirSync(outDir, { recursive: true });
const work = mkdtempSync(join(tmpdir(), 'cc-scenes-'));
try {
  for (const [name, prepare] of Object.entries(SCENES)) {
    if (only && !only.includes(name)) continue;
    console.log(`${name}: preparing`);
    const scene = prepare(work);
    const glb = keepGlb ? join(outDir, `${name}.glb`) : join(work, `${name}.glb`);
    const { warnings, seconds } = await exportScene(scene.request, glb);
    console.log(`${name}: export in ${seconds.toFixed(1)} s${warnings.length ? `, warnings ${JSON.stringify(warnings)}` : ''}`);
    const views = join(work, `${name}-views.json`);
    const frame = createLocalFrame(...scene.request.origin);
    const polygon = scene.request.polygon.map(([lat, lon]) => frame.toLocal(lon, lat));
    writeFileSync(views, JSON.stringify({ name, polygon, views: scene.views }));
    const t0 = performance.now();
    const log = execFileSync(
      process.env.BLENDER ?? 'blender',
      ['-b', '--factory-startup', '--python-exit-code', '1', '--python', join(REPO_ROOT, 'scripts/gallery/render-scene.py'), '--', glb, views, outDir],
      { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    for (const line of log.split('\n')) if (line.startsWith('render-scene:')) console.log(`${name}: ${line.slice('render-scene: '.length)}`);
    console.log(`${name}: rendered in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
