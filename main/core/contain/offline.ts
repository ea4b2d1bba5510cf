// A command allowed no host runs with the network fully off: its bubblewrap line, as the sandbox runtime built it, is
// rewritten without the two socat relays the runtime starts inside the sandbox for its proxy (and without the proxy's
// sockets and variables), keeping `--unshare-net`. The relays cost most of a contained command's start (the runtime
// waits up to 0.3 s for them to listen) and gave such a command a way to the proxy it had no use for. Linux only.
// A line that is not the shape expected is left as it is (the proxy then refuses every host): never a wider line.

/**
 * The last line of the runtime's relay preamble (sandbox-runtime's RELAYS_LISTEN): what follows it in the script run
 * inside the sandbox is the command itself, as the runtime runs it when there is no proxy (the seccomp helper before
 * `bash -c`, or the command alone).
 */
const RELAYS_END =
  '\nunset _srt_since _srt_now _srt_up _srt_counts _srt_kind _srt_skip _srt_inuse _srt_http _srt_socks\n';

/** Variables the runtime sets beside the proxy's that have nothing to do with it: kept. */
const NOT_PROXY = new Set(['SANDBOX_RUNTIME', 'TMPDIR']);

const BARE = /^[A-Za-z0-9_./:@+,-][A-Za-z0-9_./:=@+,-]*$/;

/** One word as the runtime quotes it (its utils/shell-quote.js): bare when it can be, else in single quotes. */
function quoteWord(word: string): string {
  if (word === '') return "''";
  return BARE.test(word) ? word : `'${word.replace(/'/g, `'"'"'`)}'`;
}

export function quoteWords(words: readonly string[]): string {
  return words.map(quoteWord).join(' ');
}

/**
 * The words of a line the runtime quoted; undefined for a line that is anything else (other quoting, an expansion, an
 * operator). Only a line that quotes back to itself exactly is read, so no word can be read otherwise than bash would.
 */
export function unquoteWords(line: string): string[] | undefined {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length;) {
    const c = line[i]!;
    if (c === ' ') {
      if (word === undefined) return undefined;
      words.push(word);
      word = undefined;
      i++;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return undefined;
      word = (word ?? '') + line.slice(i + 1, end);
      i = end + 1;
    } else if (line.startsWith(`"'"`, i)) {
      word = (word ?? '') + "'";
      i += 3;
    } else if (/[A-Za-z0-9_./:=@+,-]/.test(c)) {
      word = (word ?? '') + c;
      i++;
    } else return undefined;
  }
  if (word === undefined) return undefined;
  words.push(word);
  return quoteWords(words) === line ? words : undefined;
}

/**
 * `argv` (`[shell, '-c', bwrap line]`, from the runtime's wrapWithSandboxArgv on Linux) without the proxy: no socat
 * relays, no bind of the proxy's sockets (`sockets`), no proxy variables; `--unshare-net` stays, so the command has
 * no network at all. Undefined when the line is not what the runtime builds with its proxy.
 */
export function withoutRelays(argv: readonly string[], sockets: readonly string[]): string[] | undefined {
  if (argv.length !== 3 || argv[1] !== '-c' || sockets.length === 0) return undefined;
  const words = unquoteWords(argv[2]!);
  if (!words) return undefined;
  const net = words.indexOf('--unshare-net');
  if (net < 0) return undefined;
  // The network block: the sockets' binds and the proxy's variables, up to the first word of something else.
  const kept: string[] = [];
  let j = net + 1;
  for (;;) {
    const [flag, a, b] = [words[j], words[j + 1], words[j + 2]];
    if (flag === '--bind' && a !== undefined && a === b && sockets.includes(a)) j += 3;
    else if (flag === '--setenv' && a !== undefined && b !== undefined) {
      if (NOT_PROXY.has(a)) kept.push(flag, a, b);
      j += 3;
    } else break;
  }
  // The command: `-- SHELL -c 'SHELL -c <relays, then the command>'`, the last four words.
  const end = words.length - 4;
  if (end < j || words[end] !== '--' || words[end + 2] !== '-c') return undefined;
  const outer = unquoteWords(words[end + 3]!);
  if (!outer || outer.length !== 3 || outer[1] !== '-c') return undefined;
  const script = outer[2]!;
  const at = script.indexOf(RELAYS_END);
  if (at < 0 || !script.slice(0, at).includes('UNIX-CONNECT:')) return undefined;
  const command = script.slice(at + RELAYS_END.length);
  const out = [...words.slice(0, net + 1), ...kept, ...words.slice(j, end), '--', words[end + 1]!, '-c', command];
  // Nothing of the proxy is left but in the command's own text.
  if (out.slice(0, -1).some((w) => sockets.some((s) => w.includes(s)))) return undefined;
  return [argv[0]!, '-c', quoteWords(out)];
}
