/**
 * Debian's chromium driven by playwright-core, headless with software WebGL (SwiftShader), for the
 * web page test: every request the page makes is recorded, and any that would leave 127.0.0.1 is
 * refused and listed, so "the page needs nothing from outside" is checked, not assumed.
 */
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

export interface BrowserPage {
  browser: Browser;
  page: Page;
  /** URLs the page asked for outside the service (refused). */
  outside: string[];
  /** Console errors and uncaught exceptions of the page. */
  errors: string[];
  close(): Promise<void>;
}

export async function openPage(base: string, viewport = { width: 1400, height: 850 }): Promise<BrowserPage> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'],
  });
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  const outside: string[] = [];
  const errors: string[] = [];
  const origin = new URL(base).origin;
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`${origin}/`)) return route.continue();
    outside.push(url);
    return route.abort('blockedbyclient');
  });
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return { browser, page, outside, errors, close: () => browser.close() };
}
