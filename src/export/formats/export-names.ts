/**
 * Names the text formats accept: MTL materials, DXF layers and COLLADA `name`s (xs:NCName) allow
 * no `/`, `:` or spaces, while feature ids look like `way/123` — one rule for all of them.
 */

/** Letters, digits, `_`, `-` and `.` only, never starting with a digit, `-` or `.`. */
export function safeName(s: string): string {
  const t = s.replace(/[^A-Za-z0-9_.-]/g, '_');
  return /^[A-Za-z_]/.test(t) ? t : `_${t}`;
}
