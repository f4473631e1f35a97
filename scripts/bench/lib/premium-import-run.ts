/**
 * One premium import in a process of its own, so its peak RSS is the import's alone:
 *   node --import tsx scripts/bench/lib/premium-import-run.ts <file> <store> <dataset>
 * Prints one JSON line: the import report plus the process's CPU seconds.
 */
import { importPremiumDataset } from '../../../src/sources/premium/import.ts';

const [file, store, dataset] = process.argv.slice(2);
const report = await importPremiumDataset(store, file, { id: dataset, country: 'CH' });
const usage = process.resourceUsage();
console.log(
  JSON.stringify({ ...report, skipped: report.skipped.count, notes: report.notes.count, cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6 }),
);
