/**
 * An import that cannot go on: names the file, where in it (a line, an object id) and what is
 * wrong, so whoever runs the import can find the spot without a debugger.
 */
export class PremiumImportError extends Error {
  constructor(
    readonly file: string,
    readonly where: string | null,
    readonly problem: string,
  ) {
    super(`${file}${where ? ` (${where})` : ''}: ${problem}`);
    this.name = 'PremiumImportError';
  }
}
