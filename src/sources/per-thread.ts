/**
 * A source opened once per thread for each configuration and reused by every tile the thread
 * builds (the first call opens files, later calls are a map lookup); a failed open is forgotten,
 * so the next call tries again.
 */
export function perThread<C, S>(open: (config?: readonly C[] | null) => Promise<S>): (config?: readonly C[] | null) => Promise<S> {
  const opened = new Map<string, Promise<S>>();
  return (config) => {
    const key = JSON.stringify(config ?? []);
    let source = opened.get(key);
    if (!source) {
      source = open(config);
      opened.set(key, source);
      source.catch(() => opened.delete(key));
    }
    return source;
  };
}
