/**
 * The SSRF guard for webhook URLs: which URLs an account may register and which addresses a
 * delivery may connect to. Live endpoints must be https and resolve only to public unicast
 * addresses; test endpoints may reach a developer's own machine or network (loopback, private), but
 * never link-local or cloud-metadata addresses. send.ts checks again at delivery time and connects
 * to exactly the addresses checked here.
 */
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import type { Mode } from '../core/account.ts';
import { envNames } from '../core/config.ts';
import { maxUrlLength, parseWebUrl, type WebUrlProblem } from '../core/web-url.ts';

/** Resolves a host name to its IP addresses (IPv4 and IPv6, in the resolver's order). */
export type Resolver = (host: string) => Promise<string[]>;

/** A URL that passed the check, and the resolved addresses that passed with it. */
export interface CheckedUrl {
  url: URL;
  addresses: string[];
}

/** A webhook URL refused; `message` is plain English, fit for a 400 answer to the API user. */
export class UnsafeWebhookUrl extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsafeWebhookUrl';
  }
}

/** The system resolver, as a connection would use it (hosts file included). */
const systemResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, order: 'verbatim' })).map((entry) => entry.address);

/**
 * AWS's IPv6 instance-metadata address. It lies in fc00::/7 (refused in live mode anyway), but test
 * mode allows unique-local addresses, so it is named once here.
 */
const awsMetadataV6 = ipaddr.parse('fd00:ec2::254');

type Address = ReturnType<typeof ipaddr.parse>;

/** Parses an address, unwrapping IPv4-mapped IPv6 (::ffff:a.b.c.d) so it is judged as IPv4. */
function parseAddress(address: string): Address | null {
  if (!ipaddr.isValid(address)) return null;
  try {
    return ipaddr.process(address);
  } catch {
    return null;
  }
}

/**
 * The address's ipaddr.js range, with two refinements: IPv4-compatible IPv6 (::a.b.c.d, deprecated,
 * which ipaddr.js calls unicast) is `reserved`, and AWS's IPv6 metadata address is `metadata`.
 */
function rangeOf(ip: Address): string {
  if (ip.kind() === 'ipv4') return ip.range();
  const v6 = ip as ipaddr.IPv6;
  if (v6.toNormalizedString() === awsMetadataV6.toNormalizedString()) return 'metadata';
  const range = v6.range();
  // ::/96 embeds an IPv4 address some stacks still route; it is never a legitimate receiver.
  if (range === 'unicast' && v6.parts.slice(0, 6).every((part) => part === 0)) return 'reserved';
  return range;
}

/** Ranges test mode refuses even though it allows loopback and private networks. */
const refusedInTest = new Set(['linkLocal', 'unspecified', 'metadata', 'multicast', 'broadcast']);

/** Whether an address is public unicast: the only kind a live webhook may reach. */
export function isPublicAddress(address: string): boolean {
  const ip = parseAddress(address);
  return ip !== null && rangeOf(ip) === 'unicast';
}

/** Whether this stage lets test endpoints reach loopback and private addresses (the local stack). */
export const privateTargetsAllowed = () => process.env[envNames.webhookPrivateTargets] === 'allow';

/**
 * Whether a delivery in `mode` may connect to `address`: live, public unicast only; test, the same
 * unless the stage allows private targets (the local stack), and then never link-local or metadata.
 */
export function isAllowedAddress(
  address: string,
  mode: Mode,
  allowPrivate = privateTargetsAllowed(),
): boolean {
  const ip = parseAddress(address);
  if (ip === null) return false;
  const range = rangeOf(ip);
  return mode === 'live' || !allowPrivate ? range === 'unicast' : !refusedInTest.has(range);
}

/** How a refused range reads in an error message. */
const rangeWords: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  uniqueLocal: 'a private address',
  linkLocal: 'a link-local address',
  metadata: 'a cloud metadata address',
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
  carrierGradeNat: 'a carrier-grade NAT address',
};

function describeAddress(address: string): string {
  const ip = parseAddress(address);
  const words = ip === null ? undefined : rangeWords[rangeOf(ip)];
  return words ?? 'a non-public address';
}

const urlProblems: Record<WebUrlProblem, string> = {
  malformed: 'url must be an absolute http or https URL, without spaces, quotes or control characters',
  scheme: 'url must use http or https',
  credentials: 'url must not contain a username or password',
  host: 'url must name its host as a domain name or an IP address',
  too_long: `url must be at most ${maxUrlLength} characters`,
};

/** `[::1]` → `::1`; a URL keeps IPv6 literals in brackets. */
function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/**
 * Checks a webhook URL for `mode` and resolves its host; throws UnsafeWebhookUrl when the URL is
 * malformed or any address it resolves to may not be reached.
 */
export async function checkWebhookUrl(
  raw: string,
  mode: Mode,
  resolve: Resolver = systemResolver,
): Promise<CheckedUrl> {
  const parsed = parseWebUrl(raw);
  if ('problem' in parsed) throw new UnsafeWebhookUrl(urlProblems[parsed.problem]);
  const url = parsed.url;
  if (mode === 'live' && url.protocol !== 'https:')
    throw new UnsafeWebhookUrl('url must use https in live mode');

  const host = bareHost(url.hostname);
  // IP literals (the URL parser has already normalized forms such as 0x7f.1) skip DNS.
  let addresses: string[];
  if (ipaddr.isValid(host)) {
    addresses = [host];
  } else {
    try {
      addresses = await resolve(host);
    } catch {
      throw new UnsafeWebhookUrl('url host could not be resolved');
    }
    if (addresses.length === 0) throw new UnsafeWebhookUrl('url host could not be resolved');
  }

  // One bad answer refuses the lot: a name answering public and private could be steered to either.
  for (const address of addresses) {
    if (!isAllowedAddress(address, mode)) {
      const where = ipaddr.isValid(host) ? 'url host is' : 'url resolves to';
      throw new UnsafeWebhookUrl(`${where} ${describeAddress(address)} (${address})`);
    }
  }
  return { url, addresses };
}
