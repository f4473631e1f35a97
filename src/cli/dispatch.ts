/** The dispatcher of `city-context`: the command list, `help`, and each command's `--help`. */
import { fail, EXIT_BAD_INPUT, EXIT_OK, type CommandIo } from './command.ts';
import { COMMANDS } from './commands.ts';

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return [
    'Usage: city-context <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    'Run "city-context <command> --help" for the options of each.',
    'The data directory is $CITY_DATA_DIR (default ./var); docs/cli.md describes every command.',
    '',
  ].join('\n');
}

export async function runCli(argv: string[], io: CommandIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.stderr.write(usage());
    return EXIT_BAD_INPUT;
  }
  if (name === 'help' || name === '--help' || name === '-h') {
    const entry = rest[0] ? COMMANDS[rest[0]] : undefined;
    io.stdout.write(entry ? `${(await entry.load()).default.help}\n` : usage());
    return EXIT_OK;
  }
  const entry = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!entry) {
    io.stderr.write(usage());
    return fail(io, EXIT_BAD_INPUT, `unknown command "${name}"`);
  }
  const command = (await entry.load()).default;
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(`${command.help}\n`);
    return EXIT_OK;
  }
  return command.run(rest, io);
}
