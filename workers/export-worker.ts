/**
 * The export pool's task entry (src/export/export-pool.ts): an export's tile groups in, the
 * finished file out (src/export/export-task.ts). Only export threads load writer code.
 */
import './thread-globals.ts';

export { buildExportFile as default } from '../src/export/export-task.ts';
