// Names from a bucket or a disk in the window: isolated (<bdi>) wherever they are shown, so a
// right-to-left character cannot reorder the text around them, and their overrides, controls and
// line separators shown as escapes, so "invoice-\u202efdp.exe" never reads "invoice-exe.pdf".

import { createElement } from 'react';
import type { FunctionComponent } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, it } from 'vitest';
import { Breadcrumbs } from '../../../renderer/components/Breadcrumbs.tsx';
import { ConflictDialog } from '../../../renderer/components/ConflictDialog.tsx';
import { DeleteDialog } from '../../../renderer/components/DeleteDialog.tsx';
import { ObjectTable } from '../../../renderer/components/ObjectTable.tsx';
import { JobRow } from '../../../renderer/components/TransfersPanel.tsx';
import { rowName } from '../../../renderer/store/browser-store.ts';
import type { JobView } from '../../../renderer/store/jobs-store.ts';

const SPOOF = 'invoice-\u202efdp.exe';
const SHOWN = '<bdi>invoice-\\u202efdp.exe</bdi>';
const UNSAFE = /[\x80-\x9f\u061c\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069]/;

function render<P extends object>(type: FunctionComponent<P>, props: P): string {
  return renderToStaticMarkup(createElement(type, props));
}

const job: JobView = {
  id: 'j1',
  kind: 'download',
  name: `${SPOOF} → /dl`,
  state: { status: 'running' },
  createdAt: 0,
  itemErrors: [],
  itemWarnings: [],
  progress: {
    objectsDone: 0,
    objectsFailed: 0,
    objectsTotal: 1,
    bytesDone: 0,
    bytesTotal: 1,
    totalsKnown: true,
    bytesPerSecond: 0,
    etaSeconds: undefined,
  },
};

it("the object table, the breadcrumbs, a job's row and the dialogs show every name isolated, its overrides as escapes", () => {
  const shown = [
    render(ObjectTable, {
      label: 'Objects',
      rows: [{ kind: 'object' as const, key: `p/${SPOOF}`, name: rowName(`p/${SPOOF}`, 'p/'), size: 1 }],
      onActivate: () => undefined,
      onDelete: () => undefined,
      onMenu: () => undefined,
    }),
    render(Breadcrumbs, { bucket: 'b', prefix: `${SPOOF}/line\u2028sep/` }),
    render(JobRow, { job, onAct: () => undefined }),
    render(ConflictDialog, { job, conflict: { id: 'c1', path: `/dl/${SPOOF}` } }),
    render(DeleteDialog, {
      target: { connectionId: 'c', bucket: 'b', keys: [SPOOF], prefixes: [`${SPOOF}/`], confirmName: SPOOF },
      onClose: () => undefined,
      onDeleted: () => undefined,
    }),
  ];
  for (const html of shown) {
    // (A row's data-key holds its key exactly, for the code that finds it: an attribute no one reads.)
    expect(html.replace(/ data-key="[^"]*"/g, '')).not.toMatch(UNSAFE);
    expect(html).toMatch(/<bdi[^>]*>[^<]*invoice-\\u202efdp\.exe/);
  }
  expect(shown[1]).toContain('<bdi>line\\u2028sep</bdi>');
  expect(shown[3]).toContain(`<bdi>/dl/invoice-\\u202efdp.exe</bdi>`);
  expect(shown[4]).toContain(SHOWN);
});
