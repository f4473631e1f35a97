/**
 * How sibling modules are named at run time: `.ts` when the code runs from source under tsx
 * (tests, scripts, `npm run dev`), `.js` when it runs compiled from `dist/` (`npm start`). Paths
 * built at run time — the worker file piscina loads, writers loaded on demand — need the
 * extension the running code has; static imports are rewritten by tsc.
 */
export const MODULE_EXT: '.ts' | '.js' = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
