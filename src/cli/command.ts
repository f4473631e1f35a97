/**
 * What every subcommand of `city-context` is made of: its options for `node:util` parseArgs, its
 * help text, and a run that returns the exit code. Exit codes: 0 done, 1 failed, 2 bad input
 * (usage, or a request the API's own validation refuses).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_BAD_INPUT = 2;

export type Options = NonNullable<ParseArgsConfig['options']>;

/** Where a command writes: stdout for results, stderr for people (progress, messages). */
export interface CommandIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  env: NodeJS.ProcessEnv;
}

export interface Command {
  /** One line for the list of commands. */
  summary: string;
  /** The whole `--help` text. */
  help: string;
  run(args: string[], io: CommandIo): Promise<number>;
}

/** Bad command line or input file: exit 2 with the message. */
export class UsageError extends Error {}

/** parseArgs with `-h/--help`, strict; a parse problem becomes a UsageError. */
export function parseCommandArgs<O extends Options>(args: string[], options: O) {
  try {
    return parseArgs({ args, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** Prints `message` (and, for bad usage, where the help is) on stderr; returns `code`. */
export function fail(io: CommandIo, code: number, message: string, command?: string): number {
  io.stderr.write(`error: ${message}\n`);
  if (code === EXIT_BAD_INPUT && command) io.stderr.write(`Run "city-context ${command} --help" for its options.\n`);
  return code;
}
