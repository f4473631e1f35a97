/**
 * DXF files as python3-ezdxf reads them (test/fixtures/dxf/read-dxf.py): the judge of the DXF
 * writer's tests, one JSON record per file.
 */
import { PYTHON, run } from './export-readers.ts';

const READER = new URL('../../fixtures/dxf/read-dxf.py', import.meta.url).pathname;

export interface DxfRead {
  errors: number;
  fixes: number;
  version: string;
  insunits: number;
  layers: string[];
  /** Layer → [ACI, true colour (null when none), the ACI's RGB in ezdxf's table]. */
  layerColours: Record<string, [number, [number, number, number] | null, [number, number, number] | null]>;
  /** Model-space 3DFACEs per layer. */
  faces: Record<string, number>;
  polylines: [string, boolean, number][];
  /** Vertices (flat xyz) of each polyline on `instances-wire`. */
  wires: number[][];
  points: number[];
  comments: string[];
  texts: [string, string][];
  blocks: Record<string, { faces: number; units: number; layers: string[]; top: number }>;
  inserts: { block: string; layer: string; at: number[]; scale: number[]; rotation: number; name: string[] }[];
  /** Layer → the distinct [ACI, true colour] its entities carry of their own. */
  ownColours: Record<string, [number, [number, number, number]][]>;
}

/** Reads the files with ezdxf, in order. */
export function readDxf(paths: string[]): DxfRead[] {
  return run(PYTHON, [READER, ...paths])
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as DxfRead);
}
