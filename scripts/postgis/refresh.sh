#!/bin/sh
# osm2pgsql-replication's --post-processing hook: after each applied batch of changes, refresh what
# the post-import step derives (building groups, extents) and move the store version (docs/postgis.md).
# Needs CITY_OSM_STORE=postgres://… in the environment.
set -eu
cd "$(dirname "$0")/../.."
exec node --import tsx scripts/import-postgis.ts --refresh --database "${CITY_OSM_STORE:?set CITY_OSM_STORE to the database URL}"
