// What the wall blocked during one command, from the sandbox's own reports (its syscall observer and its proxy) and
// from the errors the command printed: each a write path, a read path or a host, named for the model and the tool card.
import { lstatSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { english, isInside, say, type Said, type WordCode } from '../base/index.js';

export interface Blocked {
  kind: 'write' | 'read' | 'network';
  /** The path or host:port. */
  target: string;
  /** One line: what was refused and why (the English of `words`, for the model and the CLI). */
  message: string;
  /** `message` as words, said in the window's language. */
  words: Said;
  /** The sandbox runtime's own text for a refused host, as it gave it (English; shown only as a detail). */
  detail?: string;
}

/** A blocked entry whose message is the English of its words. */
export function blocked(kind: Blocked['kind'], target: string, code: WordCode, params?: Said['params']): Blocked {
  const words = say(code, params);
  return { kind, target, message: english(words), words };
}

const MAX_BLOCKED = 20;

/** The words Knack's proxy callback refuses a host with, after its name (wall.ts). */
export const NOT_ALLOWED = 'is not among the hosts allowed to this program';

/** The runtime's `resolved to …` classes of address (resolved-address-guard.js REASON_ORDER), as words. */
const ADDRESS_CLASSES: Readonly<Record<string, WordCode>> = {
  'a deny-listed address': 'wall.address.denyListed',
  'a loopback address': 'wall.address.loopback',
  'an unspecified address': 'wall.address.unspecified',
  'a link-local address': 'wall.address.linkLocal',
  'a multicast address': 'wall.address.multicast',
  'the broadcast address': 'wall.address.broadcast',
  'a cloud metadata address': 'wall.address.cloudMetadata',
  'a listed address': 'wall.address.listed',
  "one of this host's addresses": 'wall.address.thisHost',
  'a non-loopback address': 'wall.address.nonLoopback',
  'an unparsable address': 'wall.address.unparsable',
};

/** The runtime's fixed refusal reasons (sandbox-manager.js filterNetworkRequest), as words. */
const REASONS: Readonly<Record<string, WordCode>> = {
  'host is not on the allow list': 'wall.why.notOnAllowList',
  'host is on the deny list': 'wall.why.denyList',
  'malformed host': 'wall.why.malformedHost',
  'user denied': 'wall.why.denied',
  'permission prompt failed': 'wall.why.askFailed',
  'sandbox policy unavailable': 'wall.why.noPolicy',
};

/**
 * Why the sandbox's proxy refused a host, in words: Knack's own refusal (wall.ts's ask callback), the runtime's fixed
 * reasons and the classes of address a name resolved to. Undefined for any other text (a new runtime's wording).
 */
function networkWhy(reason: string): Said | undefined {
  if (reason.includes(` ${NOT_ALLOWED}`)) return say('wall.why.notAllowed');
  const fixed = REASONS[reason];
  if (fixed) return say(fixed);
  const resolved = /^resolved to (.+)$/.exec(reason);
  if (!resolved) return undefined;
  const codes = resolved[1]!.split(' / ').map((c) => ADDRESS_CLASSES[c]);
  if (codes.some((c) => c === undefined)) return undefined;
  const addresses = codes.map((c): Said => say(c!)).reduce((a, b) => say('listOrWord', { a, b }));
  return say('wall.why.resolvedTo', { addresses });
}

/** A refused host: its reason in words when it is one Knack knows, the runtime's own text kept as the detail. */
function refusedHost(host: string, reason: string | undefined): Blocked {
  if (reason === undefined) return blocked('network', host, 'wall.networkRefused', { host });
  const why = networkWhy(reason);
  const b = why
    ? blocked('network', host, 'wall.networkRefusedWhy', { host, why })
    : blocked('network', host, 'wall.networkRefused', { host });
  return { ...b, detail: reason };
}

/** `deny openat /x`, `deny mkdir /x`, `deny network-outbound host:443 (reason)` — the runtime's violation lines. */
function fromViolation(line: string): Blocked | undefined {
  const net = /^deny network-outbound (\S+?)(?: \((.*)\))?$/.exec(line);
  if (net) return refusedHost(net[1]!, net[2]);
  const fs = /^deny (\S+) (\/.*)$/.exec(line);
  if (fs) return blocked('write', fs[2]!, 'wall.writeOutside', { path: fs[2]! });
  return undefined;
}

/**
 * Everything blocked for one command: the runtime's violation lines, writes the command saw refused ("Read-only file
 * system"), reads of the denied secrets it named, and a proxy refusal its stderr reports. Deduplicated, capped.
 */
export function blockedOf(input: {
  violations: string[];
  stderr: string;
  cwd: string;
  denyRead: string[];
  /** The protected paths read-only to the command (bound over themselves: replacing one fails with EBUSY). */
  protect?: string[];
}): Blocked[] {
  const out: Blocked[] = [];
  const seen = new Set<string>();
  const add = (b: Blocked | undefined): void => {
    if (!b || seen.has(`${b.kind}\0${b.target}`) || out.length >= MAX_BLOCKED) return;
    seen.add(`${b.kind}\0${b.target}`);
    out.push(b);
  };
  // A hard link's source outside what the command may write is named by the runtime as a write refused there, though
  // a link writes only its new name (and never over an existing one): nothing was to change at the source. `git clone`
  // of a repository outside tries to link its objects, is refused, copies them and succeeds: no block. A program that
  // fails on it says so (`Invalid cross-device link`): then it is named as the link it was.
  const linkSources = new Set<string>();
  for (const v of input.violations) {
    const link = /^deny (?:link|linkat) (\/.*)$/.exec(v);
    if (link && lstatSync(link[1]!, { throwIfNoEntry: false })) linkSources.add(link[1]!);
    else add(fromViolation(v));
  }
  for (const line of input.stderr.split('\n').filter((l) => l.includes('Invalid cross-device link')))
    for (const p of linkSources) if (line.includes(p)) add(blocked('write', p, 'wall.linkOutside', { path: p }));
  // `bash: line 1: /x: Read-only file system`, `touch: cannot touch '/x': Read-only file system`, mkdir's ‘/x’.
  for (const m of input.stderr.matchAll(/([^\s'‘’"`:]+)['’"`]?: Read-only file system/g)) {
    const p = isAbsolute(m[1]!) ? m[1]! : resolve(input.cwd, m[1]!);
    add(blocked('write', p, 'wall.writeOutside', { path: p }));
  }
  // A protected path is mounted read-only over itself, so a program that replaces it (git's config.lock renamed over
  // .git/config, mv, rm) is told `Device or resource busy`. Each path of such a line that is a protected one (or in
  // one) is named; a relative one printed from another folder (`git -C sub config` says `.git/config`) is named by
  // the one protected path it can be, or as printed when it can be several.
  for (const line of input.stderr.split('\n').filter((l) => l.includes('Device or resource busy'))) {
    // Words that name a path: with a slash, or a dot name (`could not write config file` holds none).
    for (const [text] of line.matchAll(/[^\s'‘’"`:]*(?:\/|(?<![^\s'‘’"`:])\.)[^\s'‘’"`:]*/g)) {
      const at = isAbsolute(text) ? text : resolve(input.cwd, text);
      const tail = `/${text.replace(/^\.\//, '').replace(/\/+$/, '')}`;
      const can = (input.protect ?? []).filter(
        (r) => isInside(at, r) || (!isAbsolute(text) && (r.endsWith(tail) || r.includes(`${tail}/`))),
      );
      if (!can.length) continue;
      const target = can.length === 1 ? can[0]! : text;
      add(blocked('write', target, 'wall.writeProtected', { path: target }));
    }
  }
  for (const root of input.denyRead) {
    if (input.stderr.includes(root)) add(blocked('read', root, 'wall.readSecret', { path: root }));
  }
  for (const m of input.stderr.matchAll(/(\/[^\s'‘’"`:]+)/g)) {
    const root = input.denyRead.find((r) => isInside(m[1]!, r));
    if (root) add(blocked('read', root, 'wall.readSecret', { path: root }));
  }
  if (!out.some((b) => b.kind === 'network') && /Connection blocked by network allowlist/.test(input.stderr))
    add(blocked('network', '(a host)', 'wall.networkNotAllowed'));
  // A direct connection (one that bypasses the proxy: a loopback address, /dev/tcp, a raw socket) has no network to
  // reach inside the wall, so its failure is the wall's doing: curl's `Failed to connect to H port P`, bash's
  // `/dev/tcp/H/P: Connection refused`, an interpreter's `Connection refused` / `Network is unreachable`. So is a
  // host name that does not resolve: a command allowed no host has no network at all, not even a name server
  // (curl's and git's `Could not resolve host: H`, wget's `unable to resolve host address 'H'`, node's
  // `getaddrinfo ENOTFOUND H`, Python's `Temporary failure in name resolution`).
  if (!out.some((b) => b.kind === 'network')) {
    const direct =
      /Failed to connect to (\S+) port (\d+)/.exec(input.stderr) ??
      /\/dev\/(?:tcp|udp)\/([^/\s]+)\/(\d+)/.exec(input.stderr);
    const unresolved =
      /Could not resolve host: ([^\s'‘’"`]+)/.exec(input.stderr) ??
      /unable to resolve host address ['‘"]?([^\s'‘’"`]+)/.exec(input.stderr) ??
      /getaddrinfo (?:ENOTFOUND|EAI_AGAIN) ([^\s'‘’"`]+)/.exec(input.stderr) ??
      /Failed to resolve ['"]([^\s'"]+)['"]/.exec(input.stderr);
    const anyName =
      /Temporary failure in name resolution|Name or service not known|No address associated with hostname/;
    if (
      direct ||
      unresolved ||
      /Connection refused|Network is unreachable/.test(input.stderr) ||
      anyName.test(input.stderr)
    ) {
      const target = direct
        ? `${direct[1]}:${direct[2]}`
        : unresolved
          ? unresolved[1]!
          : anyName.test(input.stderr)
            ? '(a host name)'
            : '(a direct connection)';
      // A target in parentheses names no host: said as words, in the window's language.
      const host: string | Said =
        direct || unresolved ? target : say(anyName.test(input.stderr) ? 'wall.aHostName' : 'wall.aDirectConnection');
      add(blocked('network', target, 'wall.networkDirect', { host }));
    }
  }
  return out;
}
