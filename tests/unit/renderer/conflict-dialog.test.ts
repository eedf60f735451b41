// The question about a file or object already there counts the others waiting without the one it
// shows: two files in all, one asked now, is "1 more waiting", never "2+ waiting".

import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, it } from 'vitest';
import { ConflictDialog } from '../../../renderer/components/ConflictDialog.tsx';
import type { JobView } from '../../../renderer/store/jobs-store.ts';

function asking(waiting: number): string {
  const conflicts = Array.from({ length: waiting }, (_, i) => ({ id: `c${i}`, path: `/dl/f${i}.txt` }));
  const job = {
    id: 'j1',
    kind: 'download',
    name: 'f → /dl',
    state: { status: 'running' },
    createdAt: 0,
    itemErrors: [],
    itemWarnings: [],
    conflicts,
    progress: {
      objectsDone: 0,
      objectsFailed: 0,
      objectsTotal: waiting,
      bytesDone: 0,
      bytesTotal: 1,
      totalsKnown: true,
      bytesPerSecond: 0,
      etaSeconds: undefined,
    },
  } as unknown as JobView;
  return renderToStaticMarkup(createElement(ConflictDialog, { job, conflict: conflicts[0]! }));
}

it('counts the questions waiting besides the one it asks', () => {
  expect(asking(2)).toContain('(1 more waiting so far)');
  expect(asking(5)).toContain('(4 more waiting so far)');
  expect(asking(1)).not.toContain('waiting');
});
