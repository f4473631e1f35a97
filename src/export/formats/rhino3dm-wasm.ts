/**
 * The rhino3dm WebAssembly module, loaded once per process (worker) and shared by every 3dm export,
 * and release of the wasm-side objects an export creates: embind objects are not garbage
 * collected, so a long-lived worker would otherwise grow with every export.
 */
import rhino3dm, { type RhinoModule } from 'rhino3dm';

let ready: Promise<RhinoModule> | undefined;

export function rhinoModule(): Promise<RhinoModule> {
  return (ready ??= rhino3dm());
}

/** Frees embind objects (their `delete()` is not in the typings). */
export function free(...objects: unknown[]): void {
  for (const o of objects) (o as { delete?: () => void } | null)?.delete?.();
}
