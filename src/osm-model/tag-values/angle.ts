/** A slope's pitch in degrees, as `roof:angle` is tagged (`30`, `42.5°`, `30 deg`): 0 ≤ angle < 90; else null. */

const ANGLE = /^(\d+(?:[.,]\d+)?)\s*(?:°|deg|degrees?)?$/;

export function parseAngle(value: string | undefined): number | null {
  if (value === undefined) return null;
  const m = ANGLE.exec(value.trim().toLowerCase());
  if (!m) return null;
  const degrees = Number(m[1].replace(',', '.'));
  return Number.isFinite(degrees) && degrees < 90 ? degrees : null;
}
