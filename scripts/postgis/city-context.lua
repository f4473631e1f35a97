-- osm2pgsql flex style for the City Context OSM store on PostGIS (osm2pgsql 1.8 and newer).
--
--   osm2pgsql --slim --output=flex --style=scripts/postgis/city-context.lua -d postgres://… extract.osm.pbf
--
-- It selects what the SQLite import selects (src/sources/osm/tag-rules.ts and layers.ts; keep the
-- three in step) and files each feature under the same layer, one table per layer:
--
--   cc_osm_building, cc_osm_building_part, cc_osm_highway, cc_osm_railway, cc_osm_barrier,
--   cc_osm_water (coastlines, rivers, lakes), cc_osm_landcover (areas: landuse, natural, …),
--   cc_osm_poi (tagged nodes no other layer claims), cc_osm_other
--
-- Columns: osm_type/osm_id (N/W/R and the OSM id), kind (point, line or area), tags (jsonb, every
-- tag), way_members (multipolygons: how many way members the relation lists) and geom (EPSG:4326,
-- GiST-indexed). Geometry is left as OSM draws it and finished by the reader in TypeScript, so both
-- stores give the very same coordinates: an area way (kind area) is its closed line in node order (the
-- reader makes the ring, drops repeated points and winds it counter-clockwise; ST_MakePolygon(geom)
-- gives the polygon in SQL), and a multipolygon is the collection of its
-- member ways in member order (the reader joins the rings with the same code as the SQLite import,
-- and drops the relation when a member way is missing from the extract).
--
-- cc_building_relation_members: the way and relation members of `type=building` relations (Simple
-- 3D Buildings), in member order; the post-import step (npm run import-postgis) groups building
-- parts with their outlines from them.

local NOISE_KEYS = {
  created_by = true, source = true, note = true, fixme = true, FIXME = true, comment = true,
  attribution = true, converted_by = true, odbl = true, ['odbl:note'] = true, history = true,
  import_uuid = true, import = true, check_date = true, ['survey:date'] = true,
  ['description:fixme'] = true,
}
local NOISE_PREFIXES = { 'source:', 'note:', 'fixme:', 'FIXME:', 'check_date:' }

local function is_noise_key(key)
  if NOISE_KEYS[key] then return true end
  for _, prefix in ipairs(NOISE_PREFIXES) do
    if key:sub(1, #prefix) == prefix then return true end
  end
  return false
end

-- True when some tag says what the object is (`ignore`: a key that does not count, `type` on relations).
local function has_meaningful_tags(tags, ignore)
  for key in pairs(tags) do
    if key ~= ignore and not is_noise_key(key) then return true end
  end
  return false
end

local function set_of(list)
  local s = {}
  for _, v in ipairs(list) do s[v] = true end
  return s
end

-- Keys whose closed ways are areas; the set lists values that stay lines, `false`: every value is an area.
local AREA_KEYS = {
  building = false, ['building:part'] = false, ['area:highway'] = false, landuse = false,
  amenity = false, shop = false, office = false, craft = false, tourism = false, historic = false,
  military = false, place = false, water = false,
  golf = set_of({ 'hole', 'cartpath', 'path' }),
  leisure = set_of({ 'track', 'slipway' }),
  natural = set_of({ 'coastline', 'cliff', 'ridge', 'arete', 'tree_row', 'earth_bank', 'gully', 'valley' }),
  man_made = set_of({ 'cutline', 'embankment', 'pipeline', 'dyke', 'groyne' }),
  aeroway = set_of({ 'runway', 'taxiway', 'jet_bridge', 'parking_position' }),
  power = set_of({ 'line', 'minor_line', 'cable' }),
  public_transport = set_of({ 'stop_position' }),
}

-- Keys that are lines even when closed, unless one of these values makes them an area.
local LINE_KEYS_WITH_AREA_VALUES = {
  railway = set_of({ 'platform', 'station', 'turntable', 'roundhouse' }),
  waterway = set_of({ 'riverbank', 'dock', 'boatyard', 'dam' }),
}

local function closed_way_is_area(tags)
  if tags.area == 'no' then return false end
  if tags.area == 'yes' then return true end
  for key, value in pairs(tags) do
    if value ~= 'no' then
      local line_values = AREA_KEYS[key]
      if line_values ~= nil then
        if line_values == false or not line_values[value] then return true end
      elseif LINE_KEYS_WITH_AREA_VALUES[key] and LINE_KEYS_WITH_AREA_VALUES[key][value] then
        return true
      end
    end
  end
  return false
end

local function is_set(value)
  return value ~= nil and value ~= 'no'
end

local WATER_NATURAL = set_of({ 'water', 'coastline', 'bay', 'strait' })
local WATER_LANDUSE = set_of({ 'reservoir', 'basin' })
local LANDCOVER_KEYS = { 'landuse', 'natural', 'leisure', 'amenity', 'surface', 'landcover', 'golf', 'aeroway' }
local LANDCOVER_MAN_MADE = set_of({ 'pier', 'breakwater', 'bridge', 'wastewater_plant' })

-- The layer of a feature: the first matching rule wins (layers.ts classifyLayer).
local function classify_layer(tags, kind)
  if is_set(tags.building) then return 'building' end
  if is_set(tags['building:part']) then return 'building_part' end
  if is_set(tags.highway) or is_set(tags['area:highway']) then return 'highway' end
  if is_set(tags.railway) then return 'railway' end
  if is_set(tags.barrier) then return 'barrier' end
  if WATER_NATURAL[tags.natural or ''] or is_set(tags.waterway) or is_set(tags.water) or WATER_LANDUSE[tags.landuse or ''] then
    return 'water'
  end
  if kind == 'point' then return 'poi' end
  if kind == 'area' then
    for _, key in ipairs(LANDCOVER_KEYS) do
      if is_set(tags[key]) then return 'landcover' end
    end
    if LANDCOVER_MAN_MADE[tags.man_made or ''] then return 'landcover' end
  end
  return 'other'
end

local LAYERS = { 'building', 'building_part', 'highway', 'railway', 'barrier', 'water', 'landcover', 'poi', 'other' }

local tables = {}
for _, layer in ipairs(LAYERS) do
  tables[layer] = osm2pgsql.define_table({
    name = 'cc_osm_' .. layer,
    ids = { type = 'any', id_column = 'osm_id', type_column = 'osm_type' },
    columns = {
      { column = 'kind', type = 'text', not_null = true },
      { column = 'tags', type = 'jsonb', not_null = true },
      { column = 'way_members', type = 'int' },
      { column = 'geom', type = 'geometry', projection = 4326, not_null = true },
    },
  })
end

tables.building_relation_members = osm2pgsql.define_table({
  name = 'cc_building_relation_members',
  ids = { type = 'relation', id_column = 'relation_id' },
  columns = {
    { column = 'seq', type = 'int', not_null = true },
    { column = 'member_type', type = 'text', not_null = true },
    { column = 'member_id', type = 'int8', not_null = true },
    { column = 'role', type = 'text', not_null = true },
  },
})

local function add(tags, kind, geom, way_members)
  if geom:is_null() then return end
  tables[classify_layer(tags, kind)]:insert({ kind = kind, tags = tags, way_members = way_members, geom = geom })
end

function osm2pgsql.process_node(object)
  if not has_meaningful_tags(object.tags) then return end
  add(object.tags, 'point', object:as_point())
end

function osm2pgsql.process_way(object)
  if not has_meaningful_tags(object.tags) then return end
  -- an area way too is stored as its closed line, in node order: osm2pgsql's polygons may start the
  -- ring elsewhere, and the reader must start and wind it as the SQLite import does
  local kind = (object.is_closed and closed_way_is_area(object.tags)) and 'area' or 'line'
  add(object.tags, kind, object:as_linestring())
end

local MEMBER_TYPES = { n = 'node', w = 'way', r = 'relation' }

function osm2pgsql.process_relation(object)
  local tags = object.tags
  if tags.type == 'building' then
    local seq = 0
    for _, member in ipairs(object.members) do
      if member.type ~= 'n' then
        seq = seq + 1
        tables.building_relation_members:insert({ seq = seq, member_type = MEMBER_TYPES[member.type], member_id = member.ref, role = member.role })
      end
    end
  end
  if tags.type ~= 'multipolygon' or not has_meaningful_tags(tags, 'type') then return end
  local ways = 0
  for _, member in ipairs(object.members) do
    if member.type == 'w' then ways = ways + 1 end
  end
  if ways == 0 then return end
  add(tags, 'area', object:as_geometrycollection(), ways)
end
