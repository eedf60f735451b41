import { expect, it } from 'vitest';
import { groupDigits } from '../../../src/digit-groups.ts';

it('groups whole numbers by thousands exactly as toLocaleString("en-US") does', () => {
  const counts = [0, 1, 12, 999, 1000, 1001, 65_536, 999_999, 1_000_000, 123_456_789, -1, -1234, -1_000_000];
  for (let n = 1; n < Number.MAX_SAFE_INTEGER / 7; n = n * 7 + 3) counts.push(n, -n);
  counts.push(Number.MAX_SAFE_INTEGER);
  for (const count of counts) expect(groupDigits(count)).toBe(count.toLocaleString('en-US'));
});

it('says a number that is not a safe whole number as toLocaleString does', () => {
  for (const n of [2.5, 1e21, Number.MAX_SAFE_INTEGER + 2]) expect(groupDigits(n)).toBe(n.toLocaleString('en-US'));
});
