/**
 * Numbers for text formats (OBJ, DAE, DXF): the shortest string that reads back as the same
 * double, so absolute grid coordinates keep full precision, but never in exponent notation
 * (some DXF and OBJ readers stop at the `e`).
 */
export function num(x: number): string {
  if (!Number.isFinite(x)) throw new Error(`export: not a finite number (${x})`);
  if (Object.is(x, -0) || x === 0) return '0';
  const s = String(x);
  if (!s.includes('e')) return s;
  // |x| < 1e-6 or ≥ 1e21: fixed notation; below 1e-12 is under any unit's resolution.
  return Math.abs(x) < 1e-12 ? '0' : x.toFixed(20).replace(/0+$/, '').replace(/\.$/, '');
}
