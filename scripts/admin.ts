/**
 * Account administration: `npm run admin -- <command> [options]`, the same commands as
 * `city-context admin` (src/cli/admin.ts, where they live).
 */
import { runAdmin } from '../src/cli/admin.ts';

process.exitCode = await runAdmin(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env }, 'npm run admin --');
