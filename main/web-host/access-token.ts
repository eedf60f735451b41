// Who may use the web host: whoever holds the random token printed at start, from this host's own
// origin. The token arrives once in the URL; the page then carries it in a strict, HTTP-only cookie
// so that it never has to sit in the address bar, a bookmark or a log again.

import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Cookies ignore ports: the name carries the host's port so other local services never get it. */
export function tokenCookieName(request: IncomingMessage): string {
  const port = /:(\d+)$/.exec(request.headers.host ?? '')?.[1] ?? '80';
  return `barge_token_${port}`;
}

export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

function same(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The token a request presents: `?token=` or the cookie. */
export function presentedToken(request: IncomingMessage): string | undefined {
  const url = new URL(request.url ?? '/', 'http://host');
  const fromQuery = url.searchParams.get('token');
  if (fromQuery) return fromQuery;
  const cookieName = tokenCookieName(request);
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === cookieName) return value.join('=');
  }
  return undefined;
}

export function hasValidToken(request: IncomingMessage, token: string): boolean {
  const presented = presentedToken(request);
  return presented !== undefined && same(presented, token);
}

/**
 * A browser always sends Origin on WebSocket upgrades and on cross-site requests. It must be this
 * host's own origin: a page elsewhere that learnt the token still cannot drive the engine.
 */
export function isSameOrigin(request: IncomingMessage): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return request.headers['sec-fetch-site'] === undefined || request.headers['sec-fetch-site'] === 'same-origin' || request.headers['sec-fetch-site'] === 'none';
  return origin === `http://${request.headers.host}`;
}

export function tokenCookie(request: IncomingMessage, token: string): string {
  return `${tokenCookieName(request)}=${token}; HttpOnly; SameSite=Strict; Path=/`;
}
