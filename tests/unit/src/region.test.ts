import { describe, expect, it } from 'vitest';
import { isRegion } from '../../../src/region.ts';

describe('isRegion', () => {
  it.each(['us-east-1', 'eu-west-1', 'cn-north-1', 'auto', 'fsn1', 'default', 'us-gov-west-1', 'A1'])(
    'takes %s',
    (region) => {
      expect(isRegion(region)).toBe(true);
    },
  );

  it.each([
    '',
    'x@127.0.0.1:19096/#',
    'x@169.254.169.254:443/#',
    'eu-west-1.evil.example',
    'us east 1',
    '-us',
    'us-',
    'a'.repeat(64),
    'us-east-1\n',
    'r/../x',
  ])('refuses %j', (region) => {
    expect(isRegion(region)).toBe(false);
  });
});
