/**
 * Reads the CRS names city models use into EPSG codes, without looking anything up: `EPSG:n`,
 * `urn:ogc:def:crs:EPSG::n` (and `urn:ogc:def:crs:EPSG:version:n`), `http(s)://www.opengis.net/def/crs/EPSG/0/n`,
 * compound URNs and URLs (`urn:ogc:def:crs,crs:EPSG::25832,crs:EPSG::5783`, `…/crs-compound?1=…&2=…`),
 * and the German AdV URNs (`urn:adv:crs:ETRS89_UTM32*DE_DHHN92_NH`).
 */

/** What a CRS name says: the EPSG codes it names in order (a compound name lists several). */
export interface CrsName {
  codes: number[];
  /** The name as written. */
  text: string;
}

/**
 * Horizontal CRSs of the AdV (Arbeitsgemeinschaft der Vermessungsverwaltungen) URN names; the part
 * after `*` names the height system, which the import keeps as the file's heights.
 */
const ADV_HORIZONTAL: readonly [RegExp, (m: RegExpExecArray) => number][] = [
  [/^ETRS89_UTM(\d{2})$/i, (m) => 25800 + Number(m[1])],
  // DHDN / 3-degree Gauss-Kruger zone 2..5 are EPSG:31466..31469
  [/^DE_DHDN_3GK(\d)$/i, (m) => 31464 + Number(m[1])],
  [/^ETRS89_Lat-?Lon/i, () => 4258],
  [/^DE_DHDN_Lat-Lon$/i, () => 4314],
];

function advCode(text: string): number | null {
  const m = /^urn:adv:crs:([^*]+)/i.exec(text);
  if (!m) return null;
  for (const [pattern, code] of ADV_HORIZONTAL) {
    const hit = pattern.exec(m[1]);
    if (hit) return code(hit);
  }
  return null;
}

/** The EPSG codes a CRS name refers to, or null when it is not a form this reader knows. */
export function parseCrsName(raw: string): CrsName | null {
  const text = raw.trim();
  if (text === '') return null;
  const adv = advCode(text);
  if (adv !== null) return { codes: [adv], text };
  const codes: number[] = [];
  const patterns = [
    /crs:EPSG:[\d.]*:(\d+)/gi, // urn:ogc:def:crs:EPSG::n, urn:ogc:def:crs:EPSG:6.6:n, compound urn parts
    /\/def\/crs\/EPSG\/[^/]+\/(\d+)/gi, // http(s)://www.opengis.net/def/crs/EPSG/0/n
    /^EPSG:(\d+)$/gi,
    /^(\d+)$/g,
  ];
  for (const pattern of patterns) {
    for (const m of text.matchAll(pattern)) codes.push(Number(m[1]));
    if (codes.length > 0) break;
  }
  return codes.length > 0 ? { codes, text } : null;
}
