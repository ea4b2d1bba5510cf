// Where things are in a JSON settings file: the line of each key (`policy.ceiling.network` → 4) and, for text that is
// not valid JSON, the line and column where it breaks. JSON.parse's messages do not say the line (and often not even
// the position), so a hand-edited settings file gets its diagnostic's line from here.

export interface JsonLines {
  /** Line (1-based) of each object key, by its dotted path; array items are not listed. */
  keys: Map<string, number>;
  /** Where the text stops being JSON (undefined when it is valid). */
  error?: { line: number; column: number; message: string };
}

/** Deepest nesting the scan follows: a settings file needs a handful of levels; a deeper one is reported, not followed. */
export const MAX_DEPTH = 64;

/** Scan `text` as JSON (RFC 8259, as JSON.parse reads it) and say where its keys are and where it breaks. */
export function jsonLines(text: string): JsonLines {
  const keys = new Map<string, number>();
  let i = 0;
  let depth = 0;
  let line = 1;
  let lineStart = 0;

  class Stop extends Error {}
  const fail = (message: string): never => {
    throw Object.assign(new Stop(message), { at: i });
  };
  const ws = (): void => {
    while (i < text.length) {
      const c = text[i]!;
      if (c === '\n') {
        line++;
        lineStart = i + 1;
      } else if (c !== ' ' && c !== '\t' && c !== '\r') return;
      i++;
    }
  };
  const describe = (): string =>
    i >= text.length ? 'the file ends too early' : `unexpected ${JSON.stringify(text[i])}`;
  const str = (): string => {
    if (text[i] !== '"') fail(`${describe()} (expected a double-quoted string)`);
    const start = ++i;
    while (i < text.length && text[i] !== '"') {
      const c = text.charCodeAt(i);
      if (c < 0x20) fail(`a line break or control character inside a string (escape it, or close the string with ")`);
      if (text[i] === '\\') {
        i++;
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail('a \\u escape needs four hex digits');
          i += 4;
        } else if (!'"\\/bfnrt'.includes(text[i] ?? '')) fail(`unknown escape \\${text[i] ?? ''} in a string`);
      }
      i++;
    }
    if (i >= text.length) fail('a string is not closed (missing ")');
    const raw = text.slice(start, i++);
    try {
      return JSON.parse(`"${raw}"`) as string;
    } catch {
      return raw;
    }
  };
  /** `path` undefined: inside a list, whose items' keys are not listed. */
  const value = (path: string | undefined): void => {
    ws();
    const c = text[i];
    // The scan is recursive: a file nested thousands of levels deep would overflow the stack.
    if ((c === '{' || c === '[') && depth >= MAX_DEPTH)
      fail(`nested more than ${MAX_DEPTH} levels deep (a settings file needs a few)`);
    if (c === '{' || c === '[') depth++;
    try {
      container(c, path);
    } finally {
      if (c === '{' || c === '[') depth--;
    }
  };
  const container = (c: string | undefined, path: string | undefined): void => {
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        const keyLine = line;
        const key = str();
        const at = path === undefined ? undefined : path ? `${path}.${key}` : key;
        if (at !== undefined) keys.set(at, keyLine);
        ws();
        if (text[i] !== ':') fail(`${describe()} after the key "${key}" (expected :)`);
        i++;
        value(at);
        ws();
        if (text[i] === ',') {
          i++;
          ws();
          if (text[i] === '}') fail('a comma before } (JSON allows no trailing comma)');
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail(`${describe()} (expected , or } — a comma may be missing)`);
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value(undefined);
        ws();
        if (text[i] === ',') {
          i++;
          ws();
          if (text[i] === ']') fail('a comma before ] (JSON allows no trailing comma)');
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail(`${describe()} (expected , or ] — a comma may be missing)`);
      }
    }
    if (c === '"') {
      str();
      return;
    }
    const word = /^(true|false|null|-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?)/.exec(text.slice(i, i + 400));
    if (!word) fail(`${describe()} (expected a value: a string, number, true, false, null, an object or a list)`);
    i += word![0].length;
  };

  try {
    value('');
    ws();
    if (i < text.length) fail(`${describe()} after the end of the settings object`);
    return { keys };
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
    return { keys, error: { line, column: i - lineStart + 1, message: e.message } };
  }
}
