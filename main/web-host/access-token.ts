// Who may use the web host: whoever holds the random token printed at start, from this host's own
// origin, addressed by a name this host answers to.
//
// The token reaches no other server: it travels in the URL's fragment (#token=…), which a browser
// never sends anywhere; the page keeps it in sessionStorage (per origin: another local port never
// sees it) and presents it among the API WebSocket's protocols (the upgrade itself: no socket is
// open without it; src/contract/api.ts's apiProtocols) and in an Authorization header on uploads.
// No cookie: cookies ignore ports, so any other server on 127.0.0.1 would receive one.
// The Host header is checked too: a DNS-rebinding page (evil.example resolving to 127.0.0.1) passes
// an Origin check, since its origin is its own, but names the wrong host.

import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** A token chosen by hand (BARGE_TOKEN) must be as hard to guess as a generated one. */
export const MIN_TOKEN_LENGTH = 20;

export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

/** Why a token chosen by hand is refused, or undefined if it will do. */
export function tokenProblem(token: string): string | undefined {
  if (token.length < MIN_TOKEN_LENGTH)
    return `is ${token.length} characters long; it needs at least ${MIN_TOKEN_LENGTH}`;
  if (!/^[A-Za-z0-9_-]+$/.test(token)) return 'may hold only letters, digits, "-" and "_"';
  return undefined;
}

export function sameToken(presented: string | undefined, token: string): boolean {
  if (presented === undefined) return false;
  const left = Buffer.from(presented);
  const right = Buffer.from(token);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The token of an `Authorization: Bearer …` header. */
export function bearerToken(request: IncomingMessage): string | undefined {
  return /^Bearer ([A-Za-z0-9_-]+)$/.exec(request.headers.authorization ?? '')?.[1];
}

/**
 * The Host values this host answers to: the loopback names with its port, and the name it was told
 * to listen on (--host), with its port. A browser leaves the port out when it is the scheme's own
 * (80, 443), so there the bare names count too; public names (--public-name, reached through a
 * proxy that may listen on 443) count bare as well.
 */
export function allowedHosts(
  listenHost: string,
  port: number,
  publicNames: readonly string[] = [],
  scheme: 'http' | 'https' = 'http',
): Set<string> {
  const bracketed = (name: string) => (name.includes(':') ? `[${name}]` : name);
  const names = ['127.0.0.1', 'localhost', '[::1]', ...publicNames.map(bracketed)];
  const listen = bracketed(listenHost);
  if (!['0.0.0.0', '[::]'].includes(listen)) names.push(listen);
  const defaultPort = port === (scheme === 'https' ? 443 : 80);
  const bare = defaultPort ? names : publicNames.map(bracketed);
  return new Set([...names.map((name) => `${name}:${port}`), ...bare].map((name) => name.toLowerCase()));
}

export function isAllowedHost(request: IncomingMessage, allowed: ReadonlySet<string>): boolean {
  return allowed.has((request.headers.host ?? '').toLowerCase());
}

/**
 * A browser always sends Origin on WebSocket upgrades and on cross-site requests. It must be this
 * host's own origin: a page elsewhere that learnt the token still cannot drive the engine.
 */
export function isSameOrigin(request: IncomingMessage, scheme: 'http' | 'https'): boolean {
  const origin = request.headers.origin;
  if (origin === undefined)
    return (
      request.headers['sec-fetch-site'] === undefined ||
      request.headers['sec-fetch-site'] === 'same-origin' ||
      request.headers['sec-fetch-site'] === 'none'
    );
  return origin === `${scheme}://${request.headers.host}`;
}
