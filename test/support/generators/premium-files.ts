/**
 * Small city model files for the premium import tests, one per format branch: box-shaped
 * buildings whose every corner is known, written as CityJSON 2.0, CityJSONSeq and CityGML.
 */

export type Point3 = [number, number, number];
export interface BoxSurface {
  type: 'GroundSurface' | 'RoofSurface' | 'WallSurface';
  ring: Point3[];
}

/** A w × d box standing on z0, h high, corner (x0, y0); ground clockwise from above, roof and walls outward. */
export function boxSurfaces(x0: number, y0: number, w: number, d: number, z0: number, h: number): BoxSurface[] {
  const c: [number, number][] = [
    [x0, y0],
    [x0 + w, y0],
    [x0 + w, y0 + d],
    [x0, y0 + d],
  ];
  const z1 = z0 + h;
  const out: BoxSurface[] = [
    { type: 'GroundSurface', ring: [...c].reverse().map(([x, y]) => [x, y, z0]) },
    { type: 'RoofSurface', ring: c.map(([x, y]) => [x, y, z1]) },
  ];
  for (let i = 0; i < 4; i++) {
    const [ax, ay] = c[i],
      [bx, by] = c[(i + 1) % 4];
    out.push({
      type: 'WallSurface',
      ring: [
        [ax, ay, z0],
        [bx, by, z0],
        [bx, by, z1],
        [ax, ay, z1],
      ],
    });
  }
  return out;
}

/** CityJSON geometry (Solid with semantics) of boxes, appending integer vertices (scale 0.001 around `translate`). */
export function cityJsonSolid(boxes: BoxSurface[], vertices: number[][], translate: Point3, lod = '2.2') {
  const shell = boxes.map((s) => [
    s.ring.map((p) => {
      vertices.push([Math.round((p[0] - translate[0]) * 1000), Math.round((p[1] - translate[1]) * 1000), Math.round((p[2] - translate[2]) * 1000)]);
      return vertices.length - 1;
    }),
  ]);
  const types = ['GroundSurface', 'RoofSurface', 'WallSurface'] as const;
  return {
    type: 'Solid',
    lod,
    boundaries: [shell],
    semantics: { surfaces: types.map((type) => ({ type })), values: [boxes.map((s) => types.indexOf(s.type))] },
  };
}

const posList = (ring: Point3[], order: 'xy' | 'yx' = 'xy') =>
  [...ring, ring[0]].map((p) => (order === 'xy' ? `${p[0]} ${p[1]} ${p[2]}` : `${p[1]} ${p[0]} ${p[2]}`)).join(' ');

export function gmlPolygon(ring: Point3[], id?: string, order: 'xy' | 'yx' = 'xy'): string {
  return `<gml:Polygon${id ? ` gml:id="${id}"` : ''}><gml:exterior><gml:LinearRing><gml:posList srsDimension="3">${posList(ring, order)}</gml:posList></gml:LinearRing></gml:exterior></gml:Polygon>`;
}

export const CITYGML2_OPEN = `<?xml version="1.0" encoding="UTF-8"?>
<core:CityModel xmlns:core="http://www.opengis.net/citygml/2.0" xmlns:bldg="http://www.opengis.net/citygml/building/2.0" xmlns:gml="http://www.opengis.net/gml" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:gen="http://www.opengis.net/citygml/generics/2.0">`;
export const CITYGML2_CLOSE = '</core:CityModel>';

/** A CityGML 2.0 building whose lod2Solid references (xlink:href) the polygons of its boundedBy surfaces. */
export function gmlSolidBuilding(id: string, boxes: BoxSurface[], options: { roofType?: string; measuredHeight?: number; order?: 'xy' | 'yx' } = {}): string {
  const members = boxes.map((_, i) => `<gml:surfaceMember xlink:href="#${id}-p${i}"/>`).join('');
  const bounded = boxes
    .map(
      (s, i) =>
        `<bldg:boundedBy><bldg:${s.type}><bldg:lod2MultiSurface><gml:MultiSurface><gml:surfaceMember>${gmlPolygon(s.ring, `${id}-p${i}`, options.order)}</gml:surfaceMember></gml:MultiSurface></bldg:lod2MultiSurface></bldg:${s.type}></bldg:boundedBy>`,
    )
    .join('\n');
  return `<core:cityObjectMember><bldg:Building gml:id="${id}"><gml:name>${id} name</gml:name>${options.roofType ? `<bldg:roofType>${options.roofType}</bldg:roofType>` : ''}${
    options.measuredHeight !== undefined ? `<bldg:measuredHeight uom="m">${options.measuredHeight}</bldg:measuredHeight>` : ''
  }
<bldg:lod2Solid><gml:Solid><gml:exterior><gml:CompositeSurface>${members}</gml:CompositeSurface></gml:exterior></gml:Solid></bldg:lod2Solid>
${bounded}
</bldg:Building></core:cityObjectMember>`;
}

/** A CityGML building with only an lod1Solid of inline polygons. */
export function gmlLod1Building(id: string, boxes: BoxSurface[]): string {
  const members = boxes.map((s) => `<gml:surfaceMember>${gmlPolygon(s.ring)}</gml:surfaceMember>`).join('');
  return `<core:cityObjectMember><bldg:Building gml:id="${id}"><bldg:lod1Solid><gml:Solid><gml:exterior><gml:CompositeSurface>${members}</gml:CompositeSurface></gml:exterior></gml:Solid></bldg:lod1Solid></bldg:Building></core:cityObjectMember>`;
}
