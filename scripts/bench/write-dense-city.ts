/**
 * Writes the synthetic dense city of the benchmark (test/support/generators/dense-city.ts), or with
 * `--downtown` the synthetic downtown (test/support/generators/downtown.ts), to a file:
 * `node --import tsx scripts/bench/write-dense-city.ts out.osm.pbf [--downtown] [--seed N] [--side metres]`.
 */
import { DENSE_CITY_DEFAULTS, writeDenseCity } from '../../test/support/generators/dense-city.ts';
import { writeDowntown } from '../../test/support/generators/downtown.ts';

const args = process.argv.slice(2);
const downtown = args.includes('--downtown');
if (downtown) args.splice(args.indexOf('--downtown'), 1);
const flag = (name: string) => {
  const k = args.indexOf(name);
  if (k < 0) return undefined;
  const [, value] = args.splice(k, 2);
  if (value === undefined || !Number.isFinite(Number(value))) throw new Error(`${name} needs a number`);
  return Number(value);
};
const seed = flag('--seed') ?? DENSE_CITY_DEFAULTS.seed,
  side = flag('--side') ?? DENSE_CITY_DEFAULTS.sideMetres;
if (args.length !== 1) {
  console.error('usage: node --import tsx scripts/bench/write-dense-city.ts <out.osm.pbf> [--downtown] [--seed N] [--side metres]');
  process.exit(2);
}
const t0 = performance.now();
const summary = (downtown ? writeDowntown : writeDenseCity)(args[0], { ...DENSE_CITY_DEFAULTS, seed, sideMetres: side });
console.log(`${args[0]}: ${JSON.stringify(summary)} in ${((performance.now() - t0) / 1000).toFixed(2)} s`);
