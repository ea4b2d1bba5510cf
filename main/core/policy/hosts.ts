// Network hosts as the gate compares them: one canonical spelling per address (`[::ffff:127.0.0.1]`, `0`,
// `127.1` and `LOCALHOST.` are all loopback), and which addresses are internal (loopback, private, link-local, metadata).
import ipaddr from 'ipaddr.js';

/** Canonical host text: lower case, no brackets or trailing dot, IPv4-mapped IPv6 as IPv4, IP literals normalised. */
export function normalizeHost(host: string): string {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h.endsWith('.')) h = h.slice(0, -1);
  const ip = parseIp(h);
  return ip ? ip.toString() : h;
}

/**
 * Whether host pattern `pattern` (`api.x.test`, `*.x.test`) covers `host`, as the sandbox runtime's proxy matches its
 * allowed domains (matchesDomainPattern): `*.x` is every strict subdomain of x — not x itself, never an IP literal —
 * and anything else is that one host. `host` may itself be a `*.` pattern: covered when all it matches is.
 */
export function hostCovers(pattern: string, host: string): boolean {
  const wild = host.startsWith('*.');
  const h = wild ? normalizeHost(host.slice(2)) : normalizeHost(host);
  if (!pattern.startsWith('*.')) return !wild && h === normalizeHost(pattern);
  const base = normalizeHost(pattern.slice(2));
  if (wild && h === base) return true;
  return !parseIp(h) && h.endsWith(`.${base}`);
}

function parseIp(h: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  // ipaddr.process also reads the old inet_aton forms (`0`, `127.1`, `0x7f.1`), as the resolver does.
  if (!/^[0-9a-fx.:]+$/i.test(h) || !(ipaddr.isValid(h) || ipaddr.IPv4.isValidFourPartDecimal(h))) return undefined;
  try {
    return ipaddr.process(h);
  } catch {
    return undefined;
  }
}

/**
 * Why an address or host name is internal (not reachable from the public internet, or the cloud metadata service),
 * or undefined when it is an ordinary public address or a name that still has to be resolved.
 */
export function internalKind(host: string): string | undefined {
  const h = normalizeHost(host);
  if (h === 'localhost' || h.endsWith('.localhost')) return 'loopback';
  const ip = parseIp(h);
  if (!ip) return undefined;
  const range = ip.range();
  if (range === 'unicast') return undefined;
  return range;
}

/** Human words for an internal range. */
export function describeInternal(kind: string): string {
  switch (kind) {
    case 'loopback':
      return 'a loopback address (this computer)';
    case 'private':
    case 'uniqueLocal':
      return 'a private network address';
    case 'linkLocal':
      return 'a link-local address (where cloud metadata services answer)';
    case 'unspecified':
      return 'the unspecified address (this computer)';
    case 'carrierGradeNat':
      return 'a carrier-grade NAT address (also used by cloud metadata services)';
    default:
      return `a reserved address (${kind})`;
  }
}
