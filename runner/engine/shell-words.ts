/**
 * Split a command line into argv the way a POSIX shell would for plain words and quotes, without
 * running a shell: no expansion, no globbing, no variables, no operators. Supported: whitespace
 * separation, '…' (literal), "…" (with \" \\ \$ \` escapes), and backslash escapes outside quotes.
 * Anything the split cannot honour exactly (an unterminated quote, a trailing backslash) is an error.
 *
 * Our own rather than a library's: execa's parseCommandString splits on spaces and backslashes only
 * (`python3 -c "import sys"` would break into the wrong argv), and shell-quote reads an unterminated
 * quote as if it were closed and parses operators and $VARIABLES, so a mistyped --adapter would run
 * some other command instead of getting a one-line error.
 */
export class ShellWordsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ShellWordsError';
  }
}

export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (c === ' ' || c === '\t' || c === '\n') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      i++;
    } else if (c === "'") {
      const close = line.indexOf("'", i + 1);
      if (close === -1) throw new ShellWordsError(`unterminated single quote in command: ${line}`);
      word += line.slice(i + 1, close);
      inWord = true;
      i = close + 1;
    } else if (c === '"') {
      inWord = true;
      i++;
      for (;;) {
        if (i >= line.length) throw new ShellWordsError(`unterminated double quote in command: ${line}`);
        const d = line[i]!;
        if (d === '"') {
          i++;
          break;
        }
        if (d === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) {
          word += line[i + 1];
          i += 2;
        } else {
          word += d;
          i++;
        }
      }
    } else if (c === '\\') {
      if (i + 1 >= line.length) throw new ShellWordsError(`trailing backslash in command: ${line}`);
      word += line[i + 1];
      inWord = true;
      i += 2;
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  if (inWord) words.push(word);
  return words;
}
