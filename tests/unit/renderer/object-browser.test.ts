import { createElement } from 'react';
import type { FunctionComponent } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { deletePrefix, deleteSelection, downloadSelection, prefixAfterDelete } from '../../../renderer/components/BrowserDialogs.tsx';
import type { BrowserDialog } from '../../../renderer/components/BrowserDialogs.tsx';
import { BrowserToolbar } from '../../../renderer/components/BrowserToolbar.tsx';
import { DropZone } from '../../../renderer/components/DropZone.tsx';
import { ObjectBrowser } from '../../../renderer/components/ObjectBrowser.tsx';
import { ObjectTable } from '../../../renderer/components/ObjectTable.tsx';
import { parentOf } from '../../../renderer/components/useBrowserKeyboard.ts';
import { rowsInView, scrollTopShowing } from '../../../renderer/components/useRowWindow.ts';
import { rowName } from '../../../renderer/store/browser-store.ts';
import type { Row } from '../../../renderer/store/browser-store.ts';

const object = (key: string): Row => ({ kind: 'object', key, name: rowName(key, 'p/'), size: 1 });
const folder = (key: string): Row => ({ kind: 'folder', key, name: rowName(key, 'p/') });

// Rendered to markup, the store reads its initial state (zustand's server snapshot): the parts get
// what differs through their props.
function render<P extends object>(type: FunctionComponent<P>, props: Omit<P, 'children'>, children?: string): string {
  return renderToStaticMarkup(createElement(type, props as P, children));
}

describe('the object browser', () => {
  it('goes to the parent once the folder on screen is deleted; stays (and lists again) after any other delete', () => {
    const targetOf = (dialog: BrowserDialog) => {
      if (dialog.kind !== 'delete') throw new Error('not a delete');
      return dialog.target;
    };
    expect(prefixAfterDelete(targetOf(deletePrefix('c1', 'b', 'photos/2024/')), 'b', 'photos/2024/')).toBe('photos/');
    expect(prefixAfterDelete(targetOf(deletePrefix('c1', 'b', 'top/')), 'b', 'top/')).toBe('');
    // The bucket at its top, the selection, or another bucket's folder: the view stays.
    expect(prefixAfterDelete(targetOf(deletePrefix('c1', 'b', '')), 'b', '')).toBeUndefined();
    expect(prefixAfterDelete(targetOf(deleteSelection('c1', 'b', [folder('p/d/')])), 'b', 'p/')).toBeUndefined();
    expect(prefixAfterDelete(targetOf(deletePrefix('c1', 'other', 'photos/2024/')), 'b', 'photos/2024/')).toBeUndefined();
  });

  it('without a connection, offers to add one, and says how to open the demo store', () => {
    const html = render(ObjectBrowser, {});
    expect(html).toContain('<h2>No connection yet</h2>');
    expect(html).toContain('<button type="button">Add a connection</button>');
    expect(html).toContain('<code>npm run demo</code>');
  });

  it('has a toolbar whose buttons follow the selection', () => {
    const none = render(BrowserToolbar, { selectedRows: [], onDownload: () => undefined, onDelete: () => undefined, onDeletePrefix: () => undefined });
    for (const part of ['role="toolbar" aria-label="Actions"', 'aria-label="Filter by name"', 'aria-label="Choose files to upload"', 'aria-label="Choose a folder to upload"', '>Empty bucket<']) expect(none).toContain(part);
    expect(none).toContain('<button type="button" disabled="">Download</button>');
    expect(none).toContain('<button type="button" disabled="">Copy link</button>');
    const oneObject = render(BrowserToolbar, { selectedRows: [object('p/a.txt')], onDownload: () => undefined, onDelete: () => undefined, onDeletePrefix: () => undefined });
    expect(oneObject).toContain('<button type="button">Copy link</button>');
    expect(oneObject).toContain('<button type="button">Download</button>');
    const oneFolder = render(BrowserToolbar, { selectedRows: [folder('p/d/')], onDownload: () => undefined, onDelete: () => undefined, onDeletePrefix: () => undefined });
    expect(oneFolder).toContain('<button type="button" disabled="">Copy link</button>');
  });

  it('has a grid with sortable columns, counted rows, in a drop area', () => {
    const html = render(DropZone, { destination: 'b/p/', onDrop: () => undefined }, 'the table');
    expect(html).toBe('<section class="drop-area" aria-label="Drop files to upload">the table</section>');
    const grid = render(ObjectTable, { label: 'Objects in b/p/', rows: [object('p/a.txt'), folder('p/d/')], onActivate: () => undefined, onDelete: () => undefined });
    for (const part of ['role="grid" aria-label="Objects in b/p/" aria-rowcount="3" aria-multiselectable="true"', 'role="columnheader" class="cell name" aria-sort="ascending"', 'Name ▲', 'Size', 'Modified', 'Storage class']) expect(grid).toContain(part);
  });

  it('opens its dialogs on the selection, the prefix or the bucket', () => {
    expect(deleteSelection('c1', 'b', [object('p/a.txt'), folder('p/d/')])).toEqual({ kind: 'delete', target: { connectionId: 'c1', bucket: 'b', keys: ['p/a.txt'], prefixes: ['p/d/'], confirmName: '2 items' } });
    expect(deleteSelection('c1', 'b', [folder('p/d/')])).toMatchObject({ target: { confirmName: 'd' } });
    expect(deletePrefix('c1', 'b', '')).toMatchObject({ target: { prefixes: [''], confirmName: 'b' } });
    expect(deletePrefix('c1', 'b', 'p/')).toMatchObject({ target: { prefixes: ['p/'], confirmName: 'p/' } });
    expect(downloadSelection('c1', 'b', [object('p/a.txt'), folder('p/d/')])).toEqual({ kind: 'download', connectionId: 'c1', bucket: 'b', keys: ['p/a.txt'], prefixes: ['p/d/'] });
  });

  it('goes up one folder on Backspace', () => {
    expect(parentOf('a/b/')).toBe('a/');
    expect(parentOf('a/')).toBe('');
  });

  it('renders the rows in view and some beyond, and scrolls the least to show a row', () => {
    // 28 px rows, 280 px in view from 2,800 px down: rows 100-109, 5 more each side.
    expect(rowsInView({ top: 2800, height: 280 }, 1_000_000, 28, 5)).toEqual({ first: 95, last: 114 });
    expect(rowsInView({ top: 2810, height: 280 }, 1_000_000, 28, 0)).toEqual({ first: 100, last: 110 });
    expect(rowsInView({ top: 0, height: 280 }, 3, 28, 5)).toEqual({ first: 0, last: 2 });
    expect(rowsInView({ top: 0, height: 280 }, 0, 28, 5).last).toBeLessThan(0);
    expect(scrollTopShowing(105, 28, { top: 2800, height: 280 })).toBeUndefined();
    expect(scrollTopShowing(99, 28, { top: 2800, height: 280 })).toBe(2772);
    expect(scrollTopShowing(110, 28, { top: 2800, height: 280 })).toBe(2828);
  });
});
