/**
 * Names the text formats accept: MTL materials, DXF layers and COLLADA `name`s (xs:NCName) allow
 * no `/`, `:` or spaces, while feature ids look like `way/123` — one rule for all of them.
 */

/** Letters, digits, `_`, `-` and `.` only, never starting with a digit, `-` or `.`. */
export function safeName(s: string): string {
  const t = s.replace(/[^A-Za-z0-9_.-]/g, '_');
  return /^[A-Za-z_]/.test(t) ? t : `_${t}`;
}

/**
 * Named materials for formats that list them once and refer to them by name (OBJ's MTL, DAE's
 * library): one per kind, or per kind and colour when the data gives a colour (`brick_b5651d`).
 */
export function materialNames(fallback: (kind: string) => [number, number, number]) {
  const materials = new Map<string, [number, number, number]>();
  const material = (kind: string, colour?: [number, number, number]): string => {
    const c = colour ?? fallback(kind);
    const name = colour
      ? `${safeName(kind)}_${c
          .map((x) =>
            Math.round(x * 255)
              .toString(16)
              .padStart(2, '0'),
          )
          .join('')}`
      : safeName(kind);
    materials.set(name, c);
    return name;
  };
  return { materials, material };
}
