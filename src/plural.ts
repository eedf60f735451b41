// Counts as people write them: "1 object", "2 objects", "1,000 objects".

import { groupDigits } from './digit-groups.ts';

export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${groupDigits(count)} ${count === 1 ? noun : nouns}`;
}
