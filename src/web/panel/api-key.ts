/**
 * The API key: typed once and kept in this browser's localStorage for this origin; sent only in
 * the Authorization header of requests to this same service (relative URLs). On the embedded demo
 * install the service offers its demo key to a browser on its own machine (GET /v1/demo-key, 404
 * for everyone else), which fills the field when it is empty.
 */
const STORAGE_KEY = 'cityContext.apiKey';

export function storedKey(): string {
  try {
    return localStorage.getItem(STORAGE_KEY) ?? '';
  } catch {
    return '';
  }
}

export function storeKey(key: string): void {
  try {
    if (key) localStorage.setItem(STORAGE_KEY, key);
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // storage disabled: the key lasts as long as the page
  }
}

/** The demo key when the service offers one to this browser, else null. */
export async function demoKey(): Promise<string | null> {
  try {
    const res = await fetch('/v1/demo-key', { cache: 'no-store' });
    if (!res.ok) return null;
    const body = (await res.json()) as { key?: unknown };
    return typeof body.key === 'string' ? body.key : null;
  } catch {
    return null;
  }
}
