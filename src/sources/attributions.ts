/** Credit lines of the data sources (data/README.md); a response lists those that contributed. */
export interface Attribution {
  id: string;
  name: string;
  text: string;
  license: string;
  url: string;
  required: boolean;
}

export const OSM_ATTRIBUTION: Attribution = {
  id: 'osm',
  name: 'OpenStreetMap',
  text: '© OpenStreetMap contributors',
  license: 'ODbL 1.0',
  url: 'https://www.openstreetmap.org/copyright',
  required: true,
};

// DEM credit lines come from the elevation sources themselves (src/sources/dem/attribution.ts).
