/**
 * The Khronos glTF validator (npm gltf-validator, offline) as the independent judge of our
 * glTF/GLB files: returns its report's counts and the messages worth printing on failure.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const validator = require('gltf-validator') as {
  validateBytes(data: Uint8Array, options?: Record<string, unknown>): Promise<ValidatorReport>;
};

export interface ValidatorReport {
  issues: {
    numErrors: number;
    numWarnings: number;
    numInfos: number;
    numHints: number;
    messages: { code: string; message: string; severity: number; pointer?: string }[];
  };
  info?: { drawCallCount?: number; totalVertexCount?: number; totalTriangleCount?: number };
}

export async function validateGltf(bytes: Uint8Array, uri = 'model.glb'): Promise<ValidatorReport> {
  return validator.validateBytes(bytes, {
    uri,
    maxIssues: 50,
    // an embedded or binary file needs nothing else; an external reference is itself a failure
    externalResourceFunction: (u: string) => Promise.reject(new Error(`external resource ${u} requested`)),
  });
}

/** Errors and warnings only (severity 0, 1), for assertion messages. */
export function problems(report: ValidatorReport): string {
  return report.issues.messages
    .filter((m) => m.severity <= 1)
    .map((m) => `${m.code} ${m.pointer ?? ''}: ${m.message}`)
    .join('\n');
}
