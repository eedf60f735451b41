// A limit's short name, said after "limited by" where a line has room for a word or two (the CLI's
// progress line, the window's overall panel before the sentence that explains it).

import type { LimitKind } from './contract/models.ts';

export const LIMIT_NAMES: Readonly<Record<LimitKind, string>> = {
  'max-speed': 'your Max speed',
  throttled: "the store's throttling",
  cpu: "this computer's CPU",
  disk: 'the local disk',
  latency: 'latency',
  bandwidth: 'bandwidth',
};
