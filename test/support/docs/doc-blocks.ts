/**
 * Generated blocks in the Markdown docs: the text between a `<!-- name:start -->` line and its
 * `<!-- name:end -->` line, rendered from the code that decides (so a table cannot go stale). The
 * tests in test/unit/docs/ compare each block with its renderer; `npm run docs:tables`
 * (scripts/docs/doc-tables.ts) rewrites them.
 */

/** A doc file (relative to the repository root) and the renderers of its generated blocks, by name. */
export interface DocBlocks {
  path: string;
  blocks: Readonly<Record<string, () => string>>;
}

const blockPattern = (name: string) => new RegExp(`(<!-- ${name}:start -->\\n)([\\s\\S]*?)\\n?<!-- ${name}:end -->`);

/** The text of block `name` in `markdown`, or null when its markers are missing. */
export function docBlock(markdown: string, name: string): string | null {
  return blockPattern(name).exec(markdown)?.[2] ?? null;
}

/** `markdown` with every block of `blocks` replaced by its current rendering; throws when one is missing. */
export function withCurrentBlocks(markdown: string, blocks: Readonly<Record<string, () => string>>): string {
  let out = markdown;
  for (const [name, render] of Object.entries(blocks)) {
    if (docBlock(out, name) === null) throw new Error(`no ${name} block`);
    out = out.replace(blockPattern(name), (_, start: string) => `${start}${render()}\n<!-- ${name}:end -->`);
  }
  return out;
}
