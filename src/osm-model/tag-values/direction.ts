/**
 * OSM `roof:direction`: the compass direction the roof (its main slope) faces, as degrees clockwise
 * from north (`225`, `-45`, `90°`) or as a 16-wind letter code (`SW`, `nne`) or word (`south-west`).
 * Returns degrees in [0, 360), or null.
 */

const WINDS = ['n', 'nne', 'ne', 'ene', 'e', 'ese', 'se', 'sse', 's', 'ssw', 'sw', 'wsw', 'w', 'wnw', 'nw', 'nnw'];
const DEGREES = /^(-?\d+(?:[.,]\d+)?)\s*(?:°|deg|degrees?)?$/;

export function parseDirection(value: string | undefined): number | null {
  if (value === undefined) return null;
  const text = value.trim().toLowerCase();
  const m = DEGREES.exec(text);
  if (m) {
    const degrees = Number(m[1].replace(',', '.'));
    if (!Number.isFinite(degrees) || Math.abs(degrees) > 720) return null;
    return ((degrees % 360) + 360) % 360;
  }
  const letters = text
    .replace(/[\s_-]+/g, '')
    .replace(/north/g, 'n')
    .replace(/south/g, 's')
    .replace(/east/g, 'e')
    .replace(/west/g, 'w');
  const index = WINDS.indexOf(letters);
  return index >= 0 ? index * 22.5 : null;
}
