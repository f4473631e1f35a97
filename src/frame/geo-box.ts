/** A longitude/latitude box in degrees (west, south, east, north): what raster sources cover and are read by. */
export interface GeoBox {
  west: number;
  south: number;
  east: number;
  north: number;
}
