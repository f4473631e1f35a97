/**
 * CityGML files through saxes, a streaming XML parser that checks well-formedness: a truncated or
 * broken file fails with its line and column, and nothing but the current building is held.
 */
import { createReadStream, statSync } from 'node:fs';
import { basename } from 'node:path';
import { SaxesParser } from 'saxes';
import { CityGmlHandler } from './citygml-handler.ts';
import { PremiumImportError } from './import-error.ts';
import type { ReaderCallbacks } from './source-model.ts';

export async function readCityGml(path: string, callbacks: ReaderCallbacks): Promise<void> {
  const file = basename(path);
  const totalBytes = statSync(path).size;
  const parser = new SaxesParser({ position: true });
  const handler = new CityGmlHandler(callbacks);
  let error: unknown = null;
  const where = () => `line ${parser.line}, column ${parser.column}`;
  const guard =
    <A extends unknown[]>(fn: (...args: A) => void) =>
    (...args: A): void => {
      if (error) return;
      try {
        fn(...args);
      } catch (e) {
        error = e instanceof PremiumImportError ? e : new PremiumImportError(file, where(), e instanceof Error ? e.message : String(e));
      }
    };
  parser.on(
    'opentag',
    guard((tag) => handler.openTag(tag.name, tag.attributes as Record<string, string>)),
  );
  parser.on(
    'text',
    guard((text: string) => handler.onText(text)),
  );
  parser.on(
    'closetag',
    guard(() => handler.closeTag()),
  );
  parser.on('error', (e: Error) => {
    // saxes prefixes its messages with the position; keep only what is wrong
    error ??= new PremiumImportError(file, where(), `malformed XML: ${e.message.replace(/^\d+:\d+: /, '')}`);
  });
  let bytesRead = 0;
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 16 });
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      bytesRead += Buffer.byteLength(chunk);
      parser.write(chunk);
      if (error) throw error;
      callbacks.progress?.({ pass: 1, passes: 1, bytesRead, totalBytes });
    }
    parser.close();
    if (error) throw error;
    handler.end();
  } finally {
    stream.destroy();
  }
}
