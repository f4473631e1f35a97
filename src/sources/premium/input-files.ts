/** Which files an import reads (one file, or every city model in a directory) and in which format. */
import { readdirSync, readSync, openSync, closeSync, statSync } from 'node:fs';
import { join } from 'node:path';

export type PremiumFormat = 'cityjson' | 'cityjsonseq' | 'citygml';

const EXTENSIONS: readonly [RegExp, PremiumFormat][] = [
  [/\.(city\.)?jsonl$/i, 'cityjsonseq'],
  [/\.(city\.)?json$/i, 'cityjson'],
  [/\.(gml|xml|citygml)$/i, 'citygml'],
];

/** The format of a file by its name, or null when it is not one the import reads. */
export function formatOfName(name: string): PremiumFormat | null {
  for (const [pattern, format] of EXTENSIONS) if (pattern.test(name)) return format;
  return null;
}

/**
 * A `.json` file whose first line is a whole CityJSON object followed by more lines is a
 * CityJSONSeq written with the wrong extension; everything else keeps the format its name says.
 */
export function sniffFormat(path: string, byName: PremiumFormat): PremiumFormat {
  if (byName !== 'cityjson') return byName;
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(1 << 16);
    const n = readSync(fd, head, 0, head.length, 0);
    const text = head.subarray(0, n).toString('utf8');
    const newline = text.indexOf('\n');
    if (newline < 0) return byName;
    try {
      const first = JSON.parse(text.slice(0, newline)) as { type?: unknown };
      return first.type === 'CityJSON' &&
        text
          .slice(newline + 1)
          .trimStart()
          .startsWith('{')
        ? 'cityjsonseq'
        : byName;
    } catch {
      return byName;
    }
  } finally {
    closeSync(fd);
  }
}

/** The city model files at `path` (a file, or a directory's files sorted by name); throws when there are none. */
export function inputFiles(path: string): { path: string; format: PremiumFormat }[] {
  const stat = statSync(path);
  if (stat.isFile()) {
    const format = formatOfName(path);
    if (!format) throw new Error(`${path}: not a CityJSON (.json), CityJSONSeq (.jsonl) or CityGML (.gml, .xml) file`);
    return [{ path, format: sniffFormat(path, format) }];
  }
  const files = readdirSync(path)
    .sort()
    .map((name) => ({ path: join(path, name), format: formatOfName(name) }))
    .filter((f): f is { path: string; format: PremiumFormat } => f.format !== null && statSync(f.path).isFile())
    .map((f) => ({ path: f.path, format: sniffFormat(f.path, f.format) }));
  if (files.length === 0) throw new Error(`${path}: no CityJSON, CityJSONSeq or CityGML file in this directory`);
  return files;
}
