import { expect, it } from 'vitest';
import { allowedHosts, newToken, tokenProblem } from '../../../../main/web-host/access-token.ts';
import { API_PROTOCOL, apiProtocols, offeredToken } from '../../../../src/contract/api.ts';

it('a token chosen by hand must be as hard to guess as a generated one', () => {
  expect(tokenProblem(newToken())).toBeUndefined();
  expect(tokenProblem('short')).toBe('is 5 characters long; it needs at least 20');
  expect(tokenProblem('spaces are not allowed here at all')).toBe('may hold only letters, digits, "-" and "_"');
});

it('answers to the loopback names and the name it listens on, with its port only', () => {
  expect([...allowedHosts('127.0.0.1', 8080)].sort()).toEqual(['127.0.0.1:8080', '[::1]:8080', 'localhost:8080']);
  expect(allowedHosts('barge.internal', 443).has('barge.internal:443')).toBe(true);
  // On the scheme's own port a browser sends no port: the bare name must pass, and only there.
  expect(allowedHosts('barge.internal', 443, [], 'https').has('barge.internal')).toBe(true);
  expect(allowedHosts('barge.internal', 8443, [], 'https').has('barge.internal')).toBe(false);
  expect(allowedHosts('127.0.0.1', 8080, [], 'http').has('localhost')).toBe(false);
  // A public name (behind a proxy on 443) passes bare whatever port the host listens on.
  expect(allowedHosts('127.0.0.1', 8080, ['barge.example.com'], 'http').has('barge.example.com')).toBe(true);
  expect(allowedHosts('0.0.0.0', 80).has('0.0.0.0:80')).toBe(false);
  expect(allowedHosts('::1', 80).has('[::1]:80')).toBe(true);
});

it("carries the token as a WebSocket protocol beside the API's, and reads it back from the header however spaced", () => {
  expect(apiProtocols('abc_DEF-123')).toEqual([API_PROTOCOL, 'barge.token.abc_DEF-123']);
  expect(offeredToken(apiProtocols('abc_DEF-123').join(', '))).toBe('abc_DEF-123');
  expect(offeredToken(`${API_PROTOCOL},barge.token.xyz`)).toBe('xyz');
  expect(offeredToken(API_PROTOCOL)).toBeUndefined();
  expect(offeredToken(undefined)).toBeUndefined();
});
