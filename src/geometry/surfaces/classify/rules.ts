/**
 * The one table from OSM area tags to ground kinds (docs/ground.md "Kinds"). What an area *is* lives
 * here; how it becomes triangles lives elsewhere. `classifySurfaceArea` walks the rows in order
 * and the first row whose tag matches decides, so the order is the precedence: a building site
 * before water before aviation, roads, car parks, sports, natural cover, parks and, last, urban
 * land use and a bare `surface=*`.
 *
 * A row matches when the tag's value (or one item of a `;` list; trimmed, any case) is one of the
 * row's values; `*` matches any value but `no`. A row without a kind stops the walk with no kind
 * (a building is not ground). Areas off the ground (`tunnel`, `layer<0`, `location=roof`, bridges,
 * …; see placement.ts) have no kind whatever their tags.
 *
 * Priority: `SURFACE_PRIORITY[kind]` (surfaces/priority.ts), except rows marked *urban*, which
 * are land-use envelopes (a residential district, a stadium's grounds) and get
 * `URBAN_LANDUSE_PRIORITY` (10) whatever their kind, so every mapped area inside them wins.
 *
 * `surface=*` column: what a `surface=*` tag on the same area does (surface-policy.ts). `fixed`:
 * nothing. `traffic`: grass→grass, sand→sand. `use`: asphalt/paved/gravel→pavement, rock→rock,
 * grass→grass (a grass kind stays as it is), sand→sand. `beach`: asphalt/paved→pavement,
 * gravel/rock→rock, grass→grass, sand→sand. The surface tag enters `decidedBy` only when it
 * changed the kind.
 *
 * The table, as `surfaceAreaTableMarkdown()` renders it (the rules' unit test checks that
 * this copy is current):
 *
 * <!-- surface-area-table:start -->
 * | # | OSM tags | kind | priority | surface=* | also recorded |
 * |---|---|---|---|---|---|
 * | 1 | `building=construction` | buildingConstruction | 60 | fixed | `construction` |
 * | 2 | `building=*` | — (not ground) | | | |
 * | 3 | `natural=coastline` | — (not ground) | | | |
 * | 4 | `natural=water\|bay\|strait` | water | 65 | fixed | `water` |
 * | 5 | `waterway=riverbank\|dock\|river\|canal\|stream\|tidal_channel\|ditch\|drain` | water | 65 | fixed | `water` |
 * | 6 | `landuse=reservoir\|basin\|salt_pond` | water | 65 | fixed | `water` |
 * | 7 | `leisure=swimming_pool\|swimming_area` | water | 65 | fixed | |
 * | 8 | `amenity=fountain\|swimming_pool` | water | 65 | fixed | |
 * | 9 | `golf=water_hazard\|lateral_water_hazard` | water | 65 | fixed | |
 * | 10 | `water=*` | water | 65 | fixed | |
 * | 11 | `aeroway=helipad` | helipad | 82 | fixed | |
 * | 12 | `aeroway=apron\|runway\|taxiway\|stopway` | asphalt | 90 | traffic | |
 * | 13 | `area:highway=pedestrian\|footway\|path\|steps\|cycleway\|bridleway\|corridor\|platform\|traffic_island\|footway_island` | pavement | 80 | traffic | |
 * | 14 | `area:highway=*` | roadwayArea | 85 | traffic | |
 * | 15 | `highway=construction` | construction | 55 | fixed | |
 * | 16 | `highway=pedestrian\|footway\|path\|steps\|cycleway\|bridleway\|corridor\|platform` | pavement | 80 | traffic | |
 * | 17 | `highway=rest_area\|services` | pavement | 10 (urban) | use | |
 * | 18 | `highway=motorway\|motorway_link\|trunk\|trunk_link\|primary\|primary_link\|secondary\|secondary_link\|tertiary\|tertiary_link\|unclassified\|residential\|living_street\|service\|track\|road\|busway\|bus_guideway\|escape\|raceway\|turning_circle\|turning_loop\|passing_place\|emergency_bay` | roadwayArea | 85 | traffic | |
 * | 19 | `amenity=parking\|parking_space\|motorcycle_parking\|bus_station\|taxi` | roadwayArea | 85 | traffic | `parking` |
 * | 20 | `amenity=bicycle_parking` | pavement | 80 | traffic | |
 * | 21 | `railway=platform` | pavement | 80 | traffic | |
 * | 22 | `public_transport=platform` | pavement | 80 | traffic | |
 * | 23 | `man_made=pier\|quay\|breakwater` | pavement | 80 | use | |
 * | 24 | `waterway=dam` | pavement | 80 | use | |
 * | 25 | `leisure=pitch\|track\|fitness_station\|ice_rink` | pitch | 70 | fixed | `sport` |
 * | 26 | `golf=green\|fairway\|tee\|driving_range` | manicuredGrass | 44 | fixed | |
 * | 27 | `golf=rough` | grass | 40 | fixed | |
 * | 28 | `golf=bunker` | sand | 50 | fixed | |
 * | 29 | `natural=wood` | forest | 36 | fixed | |
 * | 30 | `natural=scrub\|heath` | shrubbery | 38 | fixed | |
 * | 31 | `natural=grassland\|fell\|tundra` | grass | 40 | fixed | |
 * | 32 | `natural=wetland` | grass; `wetland=swamp\|mangrove` → forest, `wetland=tidalflat` → sand | 40 | fixed | `wetland` |
 * | 33 | `natural=beach` | sand | 50 | beach | |
 * | 34 | `natural=sand\|dune\|shoal` | sand | 50 | fixed | |
 * | 35 | `natural=bare_rock\|scree\|shingle\|rock\|stone\|cliff\|blockfield` | rock | 50 | fixed | |
 * | 36 | `landcover=trees\|wood\|forest` | forest | 36 | fixed | |
 * | 37 | `landcover=scrub\|shrubs\|bushes\|hedge` | shrubbery | 38 | fixed | |
 * | 38 | `landcover=grass\|meadow` | grass | 40 | fixed | |
 * | 39 | `landcover=flowerbed` | garden | 45 | fixed | |
 * | 40 | `landcover=sand` | sand | 50 | fixed | |
 * | 41 | `landcover=rock\|bare_rock\|scree\|shingle` | rock | 50 | fixed | |
 * | 42 | `landcover=gravel\|paved\|asphalt` | pavement | 80 | fixed | |
 * | 43 | `landcover=water` | water | 65 | fixed | |
 * | 44 | `barrier=hedge` | shrubbery | 38 | fixed | |
 * | 45 | `landuse=forest` | forest | 36 | fixed | |
 * | 46 | `landuse=grass\|meadow\|greenfield` | grass | 40 | fixed | |
 * | 47 | `landuse=village_green\|recreation_ground` | manicuredGrass | 44 | use | |
 * | 48 | `landuse=farmland\|farm\|orchard\|vineyard\|greenhouse_horticulture\|farmyard\|animal_keeping` | farmland | 30 | fixed | |
 * | 49 | `landuse=allotments\|plant_nursery\|flowerbed` | garden | 45 | fixed | |
 * | 50 | `landuse=cemetery` | manicuredGrass | 44 | use | |
 * | 51 | `landuse=construction\|brownfield\|landfill` | construction | 55 | fixed | `construction` |
 * | 52 | `landuse=quarry` | rock | 50 | fixed | |
 * | 53 | `leisure=park\|golf_course\|miniature_golf\|recreation_ground` | manicuredGrass | 44 | use | |
 * | 54 | `leisure=garden` | garden | 45 | use | |
 * | 55 | `leisure=dog_park\|common` | grass | 40 | use | |
 * | 56 | `leisure=playground` | sand | 50 | use | |
 * | 57 | `leisure=beach_resort` | sand | 50 | beach | |
 * | 58 | `leisure=outdoor_seating\|schoolyard` | pavement | 80 | use | |
 * | 59 | `leisure=sports_centre\|stadium\|water_park\|horse_riding` | pavement | 10 (urban) | use | |
 * | 60 | `amenity=grave_yard` | manicuredGrass | 44 | use | |
 * | 61 | `amenity=marketplace` | pavement | 80 | use | |
 * | 62 | `place=square` | pavement | 80 | use | |
 * | 63 | `tourism=picnic_site\|camp_site` | grass | 40 | use | |
 * | 64 | `aeroway=heliport` | pavement | 10 (urban) | use | |
 * | 65 | `waterway=boatyard` | pavement | 10 (urban) | use | |
 * | 66 | `man_made=wastewater_plant\|works\|water_works` | pavement | 10 (urban) | use | |
 * | 67 | `amenity=fuel` | pavement | 10 (urban) | use | |
 * | 68 | `landuse=commercial\|retail\|industrial\|railway\|garages\|education\|institutional\|religious\|port\|depot` | pavement | 10 (urban) | use | |
 * | 69 | `surface=asphalt\|chipseal\|tarmac\|bitumen` | asphalt | 90 | fixed | |
 * | 70 | `surface=paved\|concrete\|concrete:plates\|concrete:lanes\|paving_stones\|paving_stones:30\|paving_stones:lanes\|sett\|cobblestone\|cobblestone:flattened\|unhewn_cobblestone\|bricks\|brick\|stone\|marble\|granite\|tiles\|metal\|metal_grid\|wood\|decking\|boardwalk\|tartan\|rubber\|acrylic\|carpet\|plastic\|clay\|hard\|greenset\|grass_paver` | pavement | 80 | fixed | |
 * | 71 | `surface=gravel\|fine_gravel\|compacted\|crushed_limestone\|crushed_rock` | pavement | 80 | fixed | |
 * | 72 | `surface=pebblestone\|shingle\|rock\|rocks\|bare_rock\|stones` | rock | 50 | fixed | |
 * | 73 | `surface=grass\|artificial_turf\|turf` | grass | 40 | fixed | |
 * | 74 | `surface=sand` | sand | 50 | fixed | |
 * <!-- surface-area-table:end -->
 *
 * Not in the table, so no kind: grounds of institutions (`amenity=school|hospital|university`,
 * `landuse=military`), envelopes that mix land and water (`leisure=marina`, `landuse=harbour`,
 * `aeroway=aerodrome`), boundaries (`leisure=nature_reserve`), `natural=glacier` (no ice kind).
 * Whatever no area covers is base ground (priority.ts). The sea is not an area in OSM
 * (`natural=coastline` is a line with land on its left): see from-features.ts.
 */
import type { SurfaceKind } from '../types.ts';
import { SURFACE_PRIORITY, URBAN_LANDUSE_PRIORITY } from '../priority.ts';
import { describeSurfacePolicy, type SurfacePolicy } from './surface-policy.ts';
import { surfaceValuesOf } from './surface-material.ts';

export interface AreaRule {
  /** The OSM key this row reads. */
  key: string;
  /** Values that match (lower case), or `*` for any value but `no`. */
  values: ReadonlySet<string> | '*';
  /** The kind, or null: the area is not ground cover and the walk stops. */
  kind: SurfaceKind | null;
  /** What `surface=*` on the same area may change (default `fixed`). */
  surface: SurfacePolicy;
  /** A land-use envelope: priority URBAN_LANDUSE_PRIORITY whatever the kind. */
  urban: boolean;
  /** A second tag that picks a finer kind (`wetland=swamp` → forest); recorded when it did. */
  refine?: { key: string; kinds: Readonly<Record<string, SurfaceKind>> };
  /** Tags that say more about the area without changing its kind (`water=pond`), recorded when present. */
  details: readonly string[];
}

interface RowOptions {
  surface?: SurfacePolicy;
  urban?: boolean;
  refine?: AreaRule['refine'];
  details?: readonly string[];
}

function row(key: string, values: readonly string[] | '*', kind: SurfaceKind | null, options: RowOptions = {}): AreaRule {
  return {
    key,
    values: values === '*' ? '*' : new Set(values),
    kind,
    surface: options.surface ?? 'fixed',
    urban: options.urban ?? false,
    refine: options.refine,
    details: options.details ?? [],
  };
}

const PEDESTRIAN_WAYS = ['pedestrian', 'footway', 'path', 'steps', 'cycleway', 'bridleway', 'corridor', 'platform'];
const ROADS = [
  'motorway',
  'motorway_link',
  'trunk',
  'trunk_link',
  'primary',
  'primary_link',
  'secondary',
  'secondary_link',
  'tertiary',
  'tertiary_link',
  'unclassified',
  'residential',
  'living_street',
  'service',
  'track',
  'road',
  'busway',
  'bus_guideway',
  'escape',
  'raceway',
  'turning_circle',
  'turning_loop',
  'passing_place',
  'emergency_bay',
];
const TRAFFIC = { surface: 'traffic' } as const;
const USE = { surface: 'use' } as const;
const URBAN = { surface: 'use', urban: true } as const;

/** The rows, in precedence order. */
export const AREA_RULES: readonly AreaRule[] = [
  // A building site is ground; any other building is cut out of the ground.
  row('building', ['construction'], 'buildingConstruction', { details: ['construction'] }),
  row('building', '*', null),
  // A closed coastline encloses land (an island), not water.
  row('natural', ['coastline'], null),
  // Water, before anything a pool or fountain is also tagged with.
  row('natural', ['water', 'bay', 'strait'], 'water', { details: ['water'] }),
  row('waterway', ['riverbank', 'dock', 'river', 'canal', 'stream', 'tidal_channel', 'ditch', 'drain'], 'water', { details: ['water'] }),
  row('landuse', ['reservoir', 'basin', 'salt_pond'], 'water', { details: ['water'] }),
  row('leisure', ['swimming_pool', 'swimming_area'], 'water'),
  row('amenity', ['fountain', 'swimming_pool'], 'water'),
  row('golf', ['water_hazard', 'lateral_water_hazard'], 'water'),
  row('water', '*', 'water'),
  // Aviation.
  row('aeroway', ['helipad'], 'helipad'),
  row('aeroway', ['apron', 'runway', 'taxiway', 'stopway'], 'asphalt', TRAFFIC),
  // Roads and paths drawn as areas.
  row('area:highway', [...PEDESTRIAN_WAYS, 'traffic_island', 'footway_island'], 'pavement', TRAFFIC),
  row('area:highway', '*', 'roadwayArea', TRAFFIC),
  row('highway', ['construction'], 'construction'),
  row('highway', PEDESTRIAN_WAYS, 'pavement', TRAFFIC),
  row('highway', ['rest_area', 'services'], 'pavement', URBAN),
  row('highway', ROADS, 'roadwayArea', TRAFFIC),
  // Car parks and other vehicle areas.
  row('amenity', ['parking', 'parking_space', 'motorcycle_parking', 'bus_station', 'taxi'], 'roadwayArea', { ...TRAFFIC, details: ['parking'] }),
  row('amenity', ['bicycle_parking'], 'pavement', TRAFFIC),
  // Platforms, piers, quays.
  row('railway', ['platform'], 'pavement', TRAFFIC),
  row('public_transport', ['platform'], 'pavement', TRAFFIC),
  row('man_made', ['pier', 'quay', 'breakwater'], 'pavement', USE),
  row('waterway', ['dam'], 'pavement', USE),
  // Sports grounds.
  row('leisure', ['pitch', 'track', 'fitness_station', 'ice_rink'], 'pitch', { details: ['sport'] }),
  row('golf', ['green', 'fairway', 'tee', 'driving_range'], 'manicuredGrass'),
  row('golf', ['rough'], 'grass'),
  row('golf', ['bunker'], 'sand'),
  // What the ground is: natural cover before the use of the land.
  row('natural', ['wood'], 'forest'),
  row('natural', ['scrub', 'heath'], 'shrubbery'),
  row('natural', ['grassland', 'fell', 'tundra'], 'grass'),
  row('natural', ['wetland'], 'grass', { refine: { key: 'wetland', kinds: { swamp: 'forest', mangrove: 'forest', tidalflat: 'sand' } } }),
  row('natural', ['beach'], 'sand', { surface: 'beach' }),
  row('natural', ['sand', 'dune', 'shoal'], 'sand'),
  row('natural', ['bare_rock', 'scree', 'shingle', 'rock', 'stone', 'cliff', 'blockfield'], 'rock'),
  row('landcover', ['trees', 'wood', 'forest'], 'forest'),
  row('landcover', ['scrub', 'shrubs', 'bushes', 'hedge'], 'shrubbery'),
  row('landcover', ['grass', 'meadow'], 'grass'),
  row('landcover', ['flowerbed'], 'garden'),
  row('landcover', ['sand'], 'sand'),
  row('landcover', ['rock', 'bare_rock', 'scree', 'shingle'], 'rock'),
  row('landcover', ['gravel', 'paved', 'asphalt'], 'pavement'),
  row('landcover', ['water'], 'water'),
  row('barrier', ['hedge'], 'shrubbery'),
  // Land use that says what covers the ground.
  row('landuse', ['forest'], 'forest'),
  row('landuse', ['grass', 'meadow', 'greenfield'], 'grass'),
  row('landuse', ['village_green', 'recreation_ground'], 'manicuredGrass', USE),
  row('landuse', ['farmland', 'farm', 'orchard', 'vineyard', 'greenhouse_horticulture', 'farmyard', 'animal_keeping'], 'farmland'),
  row('landuse', ['allotments', 'plant_nursery', 'flowerbed'], 'garden'),
  row('landuse', ['cemetery'], 'manicuredGrass', USE),
  row('landuse', ['construction', 'brownfield', 'landfill'], 'construction', { details: ['construction'] }),
  row('landuse', ['quarry'], 'rock'),
  // Parks, gardens and places: a use; surface=* says what they look like.
  row('leisure', ['park', 'golf_course', 'miniature_golf', 'recreation_ground'], 'manicuredGrass', USE),
  row('leisure', ['garden'], 'garden', USE),
  row('leisure', ['dog_park', 'common'], 'grass', USE),
  row('leisure', ['playground'], 'sand', USE),
  row('leisure', ['beach_resort'], 'sand', { surface: 'beach' }),
  row('leisure', ['outdoor_seating', 'schoolyard'], 'pavement', USE),
  row('leisure', ['sports_centre', 'stadium', 'water_park', 'horse_riding'], 'pavement', URBAN),
  row('amenity', ['grave_yard'], 'manicuredGrass', USE),
  row('amenity', ['marketplace'], 'pavement', USE),
  row('place', ['square'], 'pavement', USE),
  row('tourism', ['picnic_site', 'camp_site'], 'grass', USE),
  row('aeroway', ['heliport'], 'pavement', URBAN),
  row('waterway', ['boatyard'], 'pavement', URBAN),
  row('man_made', ['wastewater_plant', 'works', 'water_works'], 'pavement', URBAN),
  row('amenity', ['fuel'], 'pavement', URBAN),
  // Urban land use: hard ground under everything else mapped. Not `residential`: a residential
  // district holds gardens as well as yards, so the filler decides there by what is around it
  // (surfaces/filler, docs/ground.md "The filler").
  row('landuse', ['commercial', 'retail', 'industrial', 'railway', 'garages', 'education', 'institutional', 'religious', 'port', 'depot'], 'pavement', URBAN),
  // A bare surface=* with nothing else to go by.
  row('surface', surfaceValuesOf('asphalt'), 'asphalt'),
  row('surface', surfaceValuesOf('paved'), 'pavement'),
  row('surface', surfaceValuesOf('gravel'), 'pavement'),
  row('surface', surfaceValuesOf('rock'), 'rock'),
  row('surface', surfaceValuesOf('grass'), 'grass'),
  row('surface', surfaceValuesOf('sand'), 'sand'),
];

/** Every key some row reads (the keys worth generating in tests, and worth reading from the store). */
export const AREA_RULE_KEYS: readonly string[] = [...new Set(AREA_RULES.flatMap((r) => [r.key, ...(r.refine ? [r.refine.key] : []), ...r.details]))];

/** The priority a row gives to `kind`. */
export function rulePriority(rule: AreaRule, kind: SurfaceKind): number {
  return rule.urban ? URBAN_LANDUSE_PRIORITY : SURFACE_PRIORITY[kind];
}

/** The table above as markdown (one line per row), for docs/ground.md and the doc-comment check. */
export function surfaceAreaTableMarkdown(): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  const lines = ['| # | OSM tags | kind | priority | surface=* | also recorded |', '|---|---|---|---|---|---|'];
  AREA_RULES.forEach((r, i) => {
    const tags = `\`${esc(`${r.key}=${r.values === '*' ? '*' : [...r.values].join('|')}`)}\``;
    if (r.kind === null) {
      lines.push(`| ${i + 1} | ${tags} | — (not ground) | | | |`);
      return;
    }
    let kind: string = r.kind;
    if (r.refine) {
      const byKind = new Map<SurfaceKind, string[]>();
      for (const [v, k] of Object.entries(r.refine.kinds)) byKind.set(k, [...(byKind.get(k) ?? []), v]);
      kind += `; ${[...byKind].map(([k, vs]) => `\`${esc(`${r.refine!.key}=${vs.join('|')}`)}\` → ${k}`).join(', ')}`;
    }
    const priority = r.urban ? `${URBAN_LANDUSE_PRIORITY} (urban)` : String(SURFACE_PRIORITY[r.kind]);
    const recorded = [...(r.refine ? [r.refine.key] : []), ...r.details].map((k) => `\`${k}\``).join(', ');
    lines.push(`| ${i + 1} | ${tags} | ${kind} | ${priority} | ${r.surface} | ${recorded}${recorded ? ' ' : ''}|`);
  });
  return lines.join('\n');
}

/** One line per surface policy (material → kind), to print beside the table. */
export function surfacePolicyLegend(): string {
  return (['fixed', 'traffic', 'use', 'beach'] as const).map((p) => `- \`${p}\`: ${describeSurfacePolicy(p)}`).join('\n');
}
