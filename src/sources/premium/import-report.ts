/** The import report: counts, and what was left out and why (the first NOTE_EXAMPLES of each kind, with the total). */
import type { SkipNote } from './source-model.ts';

export const NOTE_EXAMPLES = 200;

export interface NoteList {
  count: number;
  examples: (SkipNote & { file: string })[];
}

export interface ImportReport {
  dataset: string;
  files: { file: string; format: string; crs: string; buildings: number; skipped: number }[];
  buildings: number;
  parts: number;
  surfaces: number;
  byLod: { lod0: number; lod1: number; lod2: number };
  /** Buildings and parts left out for want of usable geometry. */
  skipped: NoteList;
  /** What kept buildings lack (e.g. references to geometry elsewhere). */
  notes: NoteList;
  /** City objects that are not buildings, per type. */
  ignoredTypes: Record<string, number>;
  seconds: number;
  peakRssBytes: number;
}

export function emptyReport(dataset: string): ImportReport {
  return {
    dataset,
    files: [],
    buildings: 0,
    parts: 0,
    surfaces: 0,
    byLod: { lod0: 0, lod1: 0, lod2: 0 },
    skipped: { count: 0, examples: [] },
    notes: { count: 0, examples: [] },
    ignoredTypes: {},
    seconds: 0,
    peakRssBytes: 0,
  };
}

export function noteSkip(list: NoteList, note: SkipNote & { file: string }): void {
  list.count++;
  if (list.examples.length < NOTE_EXAMPLES) list.examples.push(note);
}
