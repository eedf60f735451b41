// Bucket names are names a store lists, as keys are: the bucket list, a bucket's details and the
// bucket delete dialog show them isolated, their overrides as escapes, so a store cannot list a
// bucket whose name reads as another's in the very dialog that asks to confirm deleting it
// ("Delete bucket backups-\u202eputkcab-sgol?" read "Delete bucket backups-logs-backup?").

import { createElement } from 'react';
import type { FunctionComponent } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, expect, it } from 'vitest';
import { BucketDeleteDialog } from '../../../renderer/components/BucketDeleteDialog.tsx';
import { BucketDetailsDialog } from '../../../renderer/components/BucketDetailsDialog.tsx';
import { BucketList } from '../../../renderer/components/BucketList.tsx';
import { useBrowser } from '../../../renderer/store/browser-store.ts';

const SPOOF = 'backups-\u202eputkcab-sgol';
const UNSAFE = /[\x80-\x9f\u061c\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069]/;

function render<P extends object>(type: FunctionComponent<P>, props: P): string {
  return renderToStaticMarkup(createElement(type, props));
}

// A server render reads a store's initial state (useSyncExternalStore's server snapshot): the
// buckets are put there for the render, and taken back after.
const initial = { ...useBrowser.getInitialState() };
afterEach(() => {
  Object.assign(useBrowser.getInitialState(), initial);
});

it("the bucket list, a bucket's details and the bucket delete dialog show a listed bucket's name isolated, its overrides as escapes", () => {
  Object.assign(useBrowser.getInitialState(), {
    connectionId: 'c1',
    buckets: [{ name: SPOOF }, { name: 'csi-\u009b2J' }],
    bucket: SPOOF,
    prefix: '',
  });
  const shown = {
    list: render(BucketList, { width: 240 }),
    details: render(BucketDetailsDialog, { connectionId: 'c1', name: SPOOF, onClose: () => undefined }),
    delete: render(BucketDeleteDialog, { connectionId: 'c1', name: SPOOF, onClose: () => undefined }),
  };
  expect(
    Object.entries(shown)
      .filter(([, html]) => UNSAFE.test(html))
      .map(([where]) => where),
  ).toEqual([]);
  expect(
    Object.entries(shown)
      .filter(([, html]) => !/<bdi[^>]*>[^<]*backups-\\u202eputkcab-sgol/.test(html))
      .map(([where]) => where),
  ).toEqual([]);
});
