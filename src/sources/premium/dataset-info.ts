/** What an import is told about a dataset (command line or CITY_PREMIUM_SOURCES), checked once for both. */
import { z } from 'zod';

export const datasetInfoSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'a dataset id is letters, digits, ".", "_" or "-" (at most 64)'),
  /** ISO 3166-1 alpha-2 country or ISO 3166-2 region code, e.g. CH, DE-BE. */
  country: z
    .string()
    .transform((s) => s.trim().toUpperCase())
    .pipe(z.string().regex(/^[A-Z]{2}(-[A-Z0-9]{1,3})?$/, 'country is an ISO 3166-1 alpha-2 code (CH) or an ISO 3166-2 region code (DE-BE)')),
  /** Overrides the CRS the file names (EPSG:n or any spelling crs-names.ts reads). */
  crs: z.string().min(1).optional(),
  /** Overrides the axis order of the CRS. */
  axisOrder: z.enum(['east-north', 'north-east']).optional(),
  name: z.string().min(1).optional(),
  license: z.string().min(1).optional(),
  attribution: z.string().min(1).optional(),
  url: z.string().url().optional(),
});
export type DatasetInfo = z.infer<typeof datasetInfoSchema>;
