/**
 * The highway ways a real downtown extract holds beyond roads, sidewalks, crossings, service
 * roads, steps and pedestrian ways, to bring the synthetic downtown (downtown.ts) to a real
 * extract's total: protected cycle tracks along some avenues (`highway=cycleway` at the
 * carriageway's edge, one way per block), bus stop platforms at the kerb (`highway=platform`),
 * and indoor corridors through the larger buildings (`highway=corridor indoor=yes`, which the
 * ground leaves out but the import reads). And the street furniture a downtown maps along its
 * kerbs: street trees in pits, lamps, fire hydrants, waste baskets and bus stops.
 */
import type { Tags } from './city-builder.ts';
import type { DowntownStreets, RoadLine } from './downtown-streets.ts';

export function downtownExtras(s: DowntownStreets): void {
  const c = s.c;
  for (const avenue of s.avenues.values()) {
    const track = avenue.tags.highway === 'primary' && !avenue.boulevard;
    for (const k of avenue.junctions.keys()) {
      if (!s.segment(avenue, k)) continue;
      const t0 = s.v(k) + s.offset(s.streets.get(k)!),
        t1 = s.v(k + 1) - s.offset(s.streets.get(k + 1)!);
      if (track) {
        // on the left kerb of a one-way avenue, inside the carriageway's edge as NYC maps them
        const u = avenue.at - (avenue.half - 1.2);
        const tags: Tags = { highway: 'cycleway', oneway: 'yes', surface: 'asphalt', segregated: 'yes' };
        const ids = [c.node(u, t0 - 2), c.node(u, (t0 + t1) / 2), c.node(u, t1 + 2)];
        if (c.chance(0.5)) {
          c.way(ids.slice(0, 2), tags);
          c.way(ids.slice(1), tags);
        } else c.way(ids, tags);
      }
      for (const side of [-1, 1]) {
        if (!c.chance(0.22)) continue;
        const u = avenue.at + side * (avenue.half + 0.6),
          t = c.range(t0 + 8, t1 - 20);
        c.way([c.node(u, t), c.node(u, t + 12)], { highway: 'platform', public_transport: 'platform', bus: 'yes', shelter: c.chance(0.5) ? 'yes' : 'no' });
        c.node(u + side * 1.5, t + 6, { highway: 'bus_stop', name: `${avenue.tags.name} & ${c.int(14, 59)} St` });
      }
    }
  }
  for (const road of [...s.avenues.values(), ...s.streets.values()]) kerbside(s, road);
  // corridors through the buildings with parts (towers and halls): lobbies and concourses
  const outlines = c.ways.filter((w) => w.tags.building && w.refs.length === 5);
  for (const w of outlines) {
    if (!c.chance(0.25)) continue;
    // along one diagonal, sometimes both (a = refs[0] and d = refs[2] are opposite corners)
    const [a, b, d, e] = w.refs;
    for (const [p, q] of c.chance(0.5)
      ? [[a, d]]
      : [
          [a, d],
          [b, e],
        ])
      c.way([c.between(p, q, 0.15), c.between(p, q, 0.85)], { highway: 'corridor', indoor: 'yes', level: '0' });
  }
}

const GENERA = ['Platanus', 'Gleditsia', 'Pyrus', 'Tilia', 'Quercus', 'Ginkgo', 'Zelkova'];

/** Trees, lamps, hydrants and baskets along both kerbs of a road, block by block. */
function kerbside(s: DowntownStreets, road: RoadLine): void {
  const c = s.c;
  const cross = (k: number) => (road.avenue ? s.streets.get(k)! : s.avenues.get(k)!);
  const at = (k: number) => (road.avenue ? s.v(k) : s.u(k));
  for (const k of road.junctions.keys()) {
    if (!s.segment(road, k) || road.pedestrian.has(k)) continue;
    const t0 = at(k) + s.offset(cross(k)) + 3,
      t1 = at(k + 1) - s.offset(cross(k + 1)) - 3;
    for (const side of [-1, 1]) {
      const kerb = road.at + side * (road.half + 0.3);
      const node = (t: number, tags: Tags) => (road.avenue ? c.node(kerb, t, tags) : c.node(t, kerb, tags));
      if (c.chance(0.17)) {
        const genus = c.pick(GENERA);
        for (let t = t0 + c.range(0, 6); t < t1; t += c.range(9, 15)) node(t, { natural: 'tree', genus, leaf_type: 'broadleaved' });
      }
      if ((road.avenue || side > 0) && c.chance(0.4))
        for (let t = t0 + c.range(0, 10); t < t1; t += c.range(28, 34)) node(t, { highway: 'street_lamp', lamp_mount: 'straight_mast' });
      if (c.chance(0.4)) node(c.range(t0, t1), { emergency: 'fire_hydrant', 'fire_hydrant:type': 'pillar' });
      if (c.chance(0.3)) node(c.chance(0.5) ? t0 + 1 : t1 - 1, { amenity: 'waste_basket' });
    }
  }
}
