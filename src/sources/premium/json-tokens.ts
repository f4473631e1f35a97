/**
 * Streams a JSON file through stream-json's tokenizer and hands the caller the parts of the top
 * level object it asks for: small values assembled whole, the members of one big object one at a
 * time, or the raw numbers of one big array. Nothing else is kept, so memory does not grow with
 * the file.
 */
import { createReadStream, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Transform } from 'node:stream';
import { JsonMemberFilter } from './json-member-filter.ts';

const require = createRequire(import.meta.url);

interface Token {
  name: string;
  value?: string | number | boolean | null;
}
interface TokenStream extends NodeJS.ReadableStream, NodeJS.WritableStream {
  destroy(error?: Error): void;
}
interface AssemblerLike {
  current: unknown;
  done: boolean;
  [method: string]: unknown;
}
const { parser } = require('stream-json/Parser.js') as { parser(options: object): TokenStream };
const Assembler = require('stream-json/Assembler.js') as new () => AssemblerLike;

/** How to treat the value of a top-level key. */
export type KeyMode = 'skip' | 'assemble' | 'members' | 'numbers';

export interface TopLevelVisitor {
  mode(key: string): KeyMode;
  /** The value of an `assemble` key. */
  value?(key: string, value: unknown): void;
  /** One member of a `members` key's object. */
  member?(key: string, id: string, value: unknown): void;
  /**
   * The `type` of a member of a `members` key's object, as soon as it is read; false drops the
   * member there and then (it is not assembled further, and `member` is not called for it), so an
   * unwanted giant (a city's terrain as one object) never sits in memory whole.
   */
  memberType?(key: string, id: string, type: string): boolean;
  /** One number anywhere inside a `numbers` key's value, in order. */
  number?(key: string, value: number): void;
}

export interface JsonWalkProgress {
  bytesRead: number;
  totalBytes: number;
}

/** A syntax error or a visitor's error, with the line the reading had reached (1-based). */
export class JsonWalkError extends Error {
  constructor(
    message: string,
    readonly line: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/**
 * Walks the file's top-level object. `skip` names members whose values are cut out before the
 * tokenizer sees them (json-member-filter.ts): much cheaper than tokenizing what the visitor
 * ignores anyway, but such a value is then not checked for syntax in this walk.
 */
export function walkJsonTopLevel(
  path: string,
  visitor: TopLevelVisitor,
  onProgress?: (p: JsonWalkProgress) => void,
  skip: readonly string[] = [],
): Promise<void> {
  const totalBytes = statSync(path).size;
  let bytesRead = 0,
    lines = 1;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      // files saved by Windows tools often start with a UTF-8 byte order mark, which is no JSON
      const start = bytesRead === 0 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf ? 3 : 0;
      bytesRead += chunk.length;
      for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
      onProgress?.({ bytesRead, totalBytes });
      done(null, start ? chunk.subarray(start) : chunk);
    },
  });
  const tokens = parser({ packValues: true, streamValues: false });
  const file = createReadStream(path, { highWaterMark: 1 << 16 });
  let depth = 0,
    key = '',
    mode: KeyMode = 'skip',
    member = '',
    memberKey = '',
    assembler: AssemblerLike | null = null,
    assembleDepth = 0,
    sawRoot = false;

  const feed = (token: Token): void => {
    (assembler![token.name] as ((v: unknown) => void) | undefined)?.call(assembler, token.value);
  };
  const finishValue = (value: unknown): void => {
    if (mode === 'assemble') visitor.value?.(key, value);
    else if (mode === 'members') visitor.member?.(key, member, value);
  };
  const onToken = (token: Token): void => {
    switch (token.name) {
      case 'startObject':
      case 'startArray':
        if (depth === 0) {
          if (token.name !== 'startObject') throw new Error('the file is not a JSON object');
          sawRoot = true;
        } else if (!assembler && ((mode === 'assemble' && depth === 1) || (mode === 'members' && depth === 2))) {
          assembler = new Assembler();
          assembleDepth = depth;
        }
        if (assembler) feed(token);
        depth++;
        return;
      case 'endObject':
      case 'endArray':
        depth--;
        if (assembler) {
          feed(token);
          if (depth === assembleDepth) {
            const value = assembler.current;
            assembler = null;
            finishValue(value);
          }
        }
        return;
      case 'keyValue':
        if (depth === 1) {
          key = String(token.value);
          mode = visitor.mode(key);
        } else if (depth === 2 && mode === 'members' && !assembler) member = String(token.value);
        else if (assembler) {
          if (mode === 'members' && depth === 3) memberKey = String(token.value);
          feed(token);
        }
        return;
      default: {
        if (assembler) {
          feed(token);
          const isType = mode === 'members' && depth === 3 && memberKey === 'type' && token.name === 'stringValue';
          if (isType && visitor.memberType?.(key, member, String(token.value)) === false) assembler = null;
        } else if (mode === 'numbers' && token.name === 'numberValue') visitor.number?.(key, Number(token.value));
        else if (depth === 1 && mode === 'assemble') {
          const v =
            token.name === 'numberValue'
              ? Number(token.value)
              : token.name === 'stringValue'
                ? token.value
                : token.name === 'trueValue'
                  ? true
                  : token.name === 'falseValue'
                    ? false
                    : null;
          visitor.value?.(key, v);
        } else if (depth === 2 && mode === 'members') finishValue(token.name === 'stringValue' ? token.value : null);
      }
    }
  };

  return new Promise((resolve, reject) => {
    let failed = false;
    const fail = (error: unknown): void => {
      if (failed) return;
      failed = true;
      file.destroy();
      tokens.destroy();
      const message = error instanceof Error ? error.message.replace(/^Parser cannot parse input: /, 'malformed JSON: ') : String(error);
      reject(new JsonWalkError(message, lines, { cause: error }));
    };
    file.on('error', fail);
    tokens.on('error', fail);
    tokens.on('data', (token: Token) => {
      if (failed) return;
      try {
        onToken(token);
      } catch (error) {
        fail(error);
      }
    });
    tokens.on('end', () => {
      if (failed) return;
      if (!sawRoot || depth !== 0) fail(new Error(`the file ends inside ${sawRoot ? 'an unfinished object' : 'nothing: it is empty'} (truncated?)`));
      else resolve();
    });
    const filtered = skip.length > 0 ? file.pipe(counter).pipe(new JsonMemberFilter(new Set(skip))) : file.pipe(counter);
    filtered.pipe(tokens);
  });
}
