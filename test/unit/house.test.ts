/**
 * The house rules of src/ and workers/, checked on the real tree: imports run one way (down the
 * layers below), no import circles, no file past ~400 lines. A type lives with the module that owns
 * it, so a lower layer never needs to import a higher one.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Top-level modules of src/ from the top of the request flow down; an import may point to its
 * own folder or to a folder further down this list, never up.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['cli'], // the command line: `serve` starts main
  ['main', 'workers'],
  ['service'],
  ['config'],
  ['server'],
  ['accounts'],
  ['export'],
  ['pipeline'], // main thread: one request over the tiles
  ['tile'], // worker thread: one tile
  ['features'],
  ['plan'],
  ['sources'],
  ['encode'],
  ['geometry'],
  ['osm-model'],
  ['frame'],
  ['contract'],
  ['module-ext', 'repo-root', 'process-alive'],
];
const MAX_LINES = 420;

/**
 * src/web is the browser's code (bundled by esbuild, never loaded by node): a layer beside the
 * others, not in the chain. It may import the request contract and these pure modules the exports
 * share with the preview (one palette, one table of node sizes), nothing else of the service; and
 * nothing imports it.
 */
const WEB = 'web';
const WEB_MAY_IMPORT = new Set(['src/export/formats/palette.ts', 'src/geometry/instances/catalogue.ts']);

type Graph = Map<string, Set<string>>;

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) sourceFiles(p, out);
    else if (/\.(ts|mts)$/.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** Static relative imports and re-exports (type-only included), resolved to files. */
function importGraph(files: readonly string[]): Graph {
  const graph: Graph = new Map();
  for (const file of files) {
    const targets = new Set<string>();
    for (const m of readFileSync(file, 'utf8').matchAll(/(?:import|export)\s[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const target = resolve(dirname(file), m[1]).replace(/\.js$/, '.ts');
      if (existsSync(target)) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The layer module of a file: `workers`, or the first path part under src/ (`main` for src/main.ts). */
function moduleOf(file: string): string {
  const parts = relative(ROOT, file).split('/');
  if (parts[0] === 'workers') return 'workers';
  return parts[1].replace(/\.ts$/, '');
}

function rankOf(module: string): number {
  return LAYERS.findIndex((layer) => layer.includes(module));
}

function upwardImports(graph: Graph, module: (f: string) => string, rank: (m: string) => number): string[] {
  const out: string[] = [];
  for (const [from, targets] of graph) {
    for (const to of targets) {
      const a = module(from),
        b = module(to);
      if (a !== b && rank(b) <= rank(a)) out.push(`${a} -> ${b}: ${relative(ROOT, from)} imports ${relative(ROOT, to)}`);
    }
  }
  return out;
}

/** Strongly connected components of more than one file (Tarjan). */
function circles(graph: Graph): string[][] {
  let next = 0;
  const index = new Map<string, number>(),
    low = new Map<string, number>(),
    stack: string[] = [],
    onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const c: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        c.push(w);
      } while (w !== v);
      if (c.length > 1) found.push(c);
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

const files = [...sourceFiles(join(ROOT, 'src')), ...sourceFiles(join(ROOT, 'workers'))];
const graph = importGraph(files);

const nodeGraph: Graph = new Map([...graph].filter(([f]) => moduleOf(f) !== WEB));

test('every top-level module of src/ has a place in the layers', () => {
  const unplaced = [...new Set(files.map(moduleOf))].filter((m) => m !== WEB && rankOf(m) < 0);
  assert.deepEqual(unplaced, [], 'add new top-level folders to LAYERS');
});

test('imports run one way: no module imports one above it', () => {
  assert.deepEqual(upwardImports(nodeGraph, moduleOf, rankOf), []);
});

test('the browser code imports only itself, the contract and the shared pure modules; nothing imports it', () => {
  const wrong: string[] = [];
  for (const [from, targets] of graph) {
    for (const to of targets) {
      const a = moduleOf(from),
        b = moduleOf(to);
      const rel = relative(ROOT, to);
      if (a === WEB && b !== WEB && b !== 'contract' && !WEB_MAY_IMPORT.has(rel)) wrong.push(`${relative(ROOT, from)} imports ${rel}`);
      if (a !== WEB && b === WEB) wrong.push(`${relative(ROOT, from)} imports ${rel}`);
    }
  }
  assert.deepEqual(wrong, []);
  assert.ok(
    [...graph.keys()].some((f) => moduleOf(f) === WEB && graph.get(f)!.size > 0),
    'the web layer is in the graph',
  );
});

test('no import circles in src/ and workers/', () => {
  assert.deepEqual(
    circles(graph).map((c) => c.map((f) => relative(ROOT, f)).sort()),
    [],
  );
});

test(`no source file past ${MAX_LINES} lines`, () => {
  const long = files.map((f) => [relative(ROOT, f), readFileSync(f, 'utf8').split('\n').length] as const).filter(([, n]) => n > MAX_LINES);
  assert.deepEqual(long, []);
});

test('the checks catch an upward import and a circle (made-up graph)', () => {
  const g: Graph = new Map([
    ['src/geometry/a.ts', new Set(['src/pipeline/b.ts'])],
    ['src/pipeline/b.ts', new Set(['src/geometry/a.ts'])],
    ['src/plan/c.ts', new Set(['src/geometry/a.ts'])],
  ]);
  const module = (f: string) => f.split('/')[1];
  assert.equal(upwardImports(g, module, rankOf).length, 1);
  assert.deepEqual(
    circles(g).map((c) => c.sort()),
    [['src/geometry/a.ts', 'src/pipeline/b.ts']],
  );
});
