import fc from 'fast-check';

/**
 * fc.assert with the failing assertion's own message in the report (the counterexample, seed and
 * path after it). `runsVariable` names an environment variable whose value k runs k times as many
 * cases (SURFACES_RUNS for the ground assembly, SEA_RUNS for the sea).
 */
export function holds<T>(property: fc.IProperty<T>, numRuns: number, runsVariable = 'SURFACES_RUNS'): void {
  const details = fc.check(property, { numRuns: numRuns * Number(process.env[runsVariable] ?? 1) });
  if (!details.failed) return;
  const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  throw new Error(`${cause}\ncounterexample: ${JSON.stringify(details.counterexample)}\nseed ${details.seed}, path ${details.counterexamplePath}`);
}
