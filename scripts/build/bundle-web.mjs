#!/usr/bin/env node
/**
 * Bundles the web page (src/web) into dist/web: the page's script and the /docs renderer with
 * esbuild (three, maplibre-gl and the request contract inside them), MapLibre's worker beside them
 * (the map starts it from a URL of this service, never a CDN), and the static HTML and CSS.
 * `npm run build` runs it after tsc; the page's e2e test runs it too.
 *
 *   node scripts/build/bundle-web.mjs           builds once
 *   import { bundleWeb } from './bundle-web.mjs' the same from a script or test
 */
import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const WEB_OUT = join(ROOT, 'dist/web');

/** Builds the page into `outDir` (dist/web); returns the files written. */
export async function bundleWeb(outDir = WEB_OUT) {
  const { build } = await import('esbuild');
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: { app: join(ROOT, 'src/web/main.ts'), docs: join(ROOT, 'src/web/docs/docs-page.ts') },
    outdir: outDir,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    sourcemap: 'linked',
    legalComments: 'linked',
    logLevel: 'warning',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const maplibreDist = dirname(createRequire(import.meta.url).resolve('maplibre-gl/package.json'));
  copyFileSync(join(maplibreDist, 'dist/maplibre-gl-worker.mjs'), join(outDir, 'maplibre-gl-worker.mjs'));
  copyFileSync(join(maplibreDist, 'dist/maplibre-gl.css'), join(outDir, 'maplibre-gl.css'));
  const statics = join(ROOT, 'src/web/static');
  for (const name of readdirSync(statics)) copyFileSync(join(statics, name), join(outDir, name));
  return readdirSync(outDir);
}

/** Whether esbuild is installed (an install with `npm ci --omit=dev` may lack it). */
async function haveEsbuild() {
  try {
    await import('esbuild');
    return true;
  } catch {
    return false;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (!(await haveEsbuild())) {
    // the API works without the page: say so and let `npm start` go on
    console.warn('web page not bundled: esbuild is not installed (npm ci --omit=dev?); GET / answers 404 until it is');
    process.exit(0);
  }
  const t0 = performance.now();
  const files = await bundleWeb();
  console.log(`web page bundled into dist/web (${files.length} files) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
