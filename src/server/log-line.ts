/**
 * The service's one logger: a function taking a line, written to standard output. Request lines
 * (access-log.ts) are JSON objects already; with `json` every other line becomes one too
 * (`{"time", "level", "msg"}`), so a log collector can parse the whole stream.
 */
export type LogFormat = 'text' | 'json';

export function logFormatFromEnv(raw: string | undefined): LogFormat {
  if (raw === undefined || raw === '' || raw === 'text') return 'text';
  if (raw === 'json') return 'json';
  throw new Error(`CITY_LOG_FORMAT must be text or json, not ${raw}`);
}

/** A logger writing each line to `write` in `format`. */
export function lineLogger(format: LogFormat, write: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): (line: string) => void {
  if (format === 'text') return write;
  return (line) => {
    if (line.startsWith('{')) return write(line);
    const level = /^(WARNING|internal error|Start-up failed)/.test(line) ? (line.startsWith('WARNING') ? 'warn' : 'error') : 'info';
    write(JSON.stringify({ time: new Date().toISOString(), level, msg: line }));
  };
}
