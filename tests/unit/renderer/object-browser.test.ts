import { createElement } from 'react';
import type { FunctionComponent } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import {
  deletePrefix,
  deleteSelection,
  downloadSelection,
  prefixAfterDelete,
} from '../../../renderer/components/BrowserDialogs.tsx';
import type { BrowserDialog } from '../../../renderer/components/BrowserDialogs.tsx';
import { BrowserToolbar } from '../../../renderer/components/BrowserToolbar.tsx';
import { DropZone } from '../../../renderer/components/DropZone.tsx';
import { ObjectBrowser } from '../../../renderer/components/ObjectBrowser.tsx';
import { FileIcon } from '../../../renderer/components/FileIcon.tsx';
import { ObjectTable } from '../../../renderer/components/ObjectTable.tsx';
import { findByTyping, parentOf } from '../../../renderer/components/useBrowserKeyboard.ts';
import { fileKind } from '../../../renderer/file-kind.ts';
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
    expect(
      prefixAfterDelete(targetOf(deletePrefix('c1', 'other', 'photos/2024/')), 'b', 'photos/2024/'),
    ).toBeUndefined();
  });

  it('without a connection, offers to add one, and says how to open the demo store', () => {
    const html = render(ObjectBrowser, {});
    expect(html).toContain('<h2>No connection yet</h2>');
    expect(html).toMatch(/<button type="button" class="primary"><svg[^]*?<\/svg>Add a connection<\/button>/);
    expect(html).toMatch(/<button type="button"><svg[^]*?<\/svg>Open the demo store<\/button>/);
  });

  it('has a toolbar whose buttons follow the selection', () => {
    const none = render(BrowserToolbar, {
      selectedRows: [],
      onDownload: () => undefined,
      onDelete: () => undefined,
      onDeletePrefix: () => undefined,
      onSync: () => undefined,
      onNewFolder: () => undefined,
    });
    for (const part of [
      'role="toolbar" aria-label="Actions"',
      'aria-label="Filter by name"',
      'aria-label="Choose files to upload"',
      'aria-label="Choose a folder to upload"',
      '>Empty bucket<',
    ])
      expect(none).toContain(part);
    const button = (html: string, name: string) =>
      new RegExp(`<button type="button"( disabled="")?>(<svg(?:(?!<button)[^])*?</svg>)?${name}</button>`).exec(html);
    expect(button(none, 'Download')?.[1]).toBe(' disabled=""');
    expect(button(none, 'Copy link')?.[1]).toBe(' disabled=""');
    const oneObject = render(BrowserToolbar, {
      selectedRows: [object('p/a.txt')],
      onDownload: () => undefined,
      onDelete: () => undefined,
      onDeletePrefix: () => undefined,
      onSync: () => undefined,
      onNewFolder: () => undefined,
    });
    expect(button(oneObject, 'Copy link')?.[1]).toBeUndefined();
    expect(button(oneObject, 'Download')?.[1]).toBeUndefined();
    const oneFolder = render(BrowserToolbar, {
      selectedRows: [folder('p/d/')],
      onDownload: () => undefined,
      onDelete: () => undefined,
      onDeletePrefix: () => undefined,
      onSync: () => undefined,
      onNewFolder: () => undefined,
    });
    expect(button(oneFolder, 'Copy link')?.[1]).toBe(' disabled=""');
  });

  it('has a grid with sortable columns, counted rows, in a drop area', () => {
    const html = render(DropZone, { destination: 'b/p/', onDrop: () => undefined }, 'the table');
    expect(html).toBe('<section class="drop-area" aria-label="Drop files to upload">the table</section>');
    const grid = render(ObjectTable, {
      label: 'Objects in b/p/',
      rows: [object('p/a.txt'), folder('p/d/')],
      onActivate: () => undefined,
      onDelete: () => undefined,
      onMenu: () => undefined,
    });
    for (const part of [
      'role="grid" aria-label="Objects in b/p/" aria-rowcount="3" aria-multiselectable="true"',
      'role="columnheader" class="cell name" aria-sort="ascending"',
      'Size',
      'Modified',
      'Storage class',
    ])
      expect(grid).toContain(part);
    // The sorted column shows its direction beside its name; the others do not.
    expect(grid).toMatch(/>Name<svg[^>]*lucide-chevron-up/);
    expect(grid).not.toMatch(/>Size<svg/);
  });

  it('opens its dialogs on the selection, the prefix or the bucket', () => {
    const sizes = new Map([
      ['p/a.txt', 1],
      ['p/b.txt', 7],
    ]);
    expect(deleteSelection('c1', 'b', [object('p/a.txt'), folder('p/d/')], (key) => sizes.get(key))).toEqual({
      kind: 'delete',
      target: {
        connectionId: 'c1',
        bucket: 'b',
        keys: ['p/a.txt'],
        keySizes: [1],
        prefixes: ['p/d/'],
        confirmName: '2 items',
      },
    });
    // One size unknown: none is sent (the delete counts keys; its preview looks them up).
    const partial = deleteSelection('c1', 'b', [object('p/a.txt'), object('p/c.txt')], (key) => sizes.get(key));
    expect(partial.kind === 'delete' ? partial.target.keySizes : 'not a delete').toBeUndefined();
    expect(deleteSelection('c1', 'b', [folder('p/d/')])).toMatchObject({ target: { confirmName: 'd' } });
    expect(deletePrefix('c1', 'b', '')).toMatchObject({ target: { prefixes: [''], confirmName: 'b' } });
    expect(deletePrefix('c1', 'b', 'p/')).toMatchObject({ target: { prefixes: ['p/'], confirmName: 'p/' } });
    expect(downloadSelection('c1', 'b', [object('p/a.txt'), folder('p/d/')])).toEqual({
      kind: 'download',
      connectionId: 'c1',
      bucket: 'b',
      keys: ['p/a.txt'],
      prefixes: ['p/d/'],
    });
  });

  it('goes up one folder on Backspace', () => {
    expect(parentOf('a/b/')).toBe('a/');
    expect(parentOf('a/')).toBe('');
  });

  it('finds a row by the letters typed, from the focused row on, wrapping round', () => {
    const rows = ['alpha', 'Report.pdf', 'readme.md', 'zeta', 'rain'].map((name) => object(`p/${name}`));
    expect(findByTyping(rows, 're', 0)).toBe(1);
    expect(findByTyping(rows, 'r', 2)).toBe(2);
    // The same letter again moves on to the next match, and wraps to the first.
    expect(findByTyping(rows, 'r', 3)).toBe(4);
    expect(findByTyping(rows, 'r', 5)).toBe(1);
    expect(findByTyping(rows, 'REA', 0)).toBe(2);
    expect(findByTyping(rows, 'q', 0)).toBe(-1);
    expect(findByTyping([], 'a', 0)).toBe(-1);
  });

  it('names each file by its kind, from the extension alone', () => {
    expect(
      [
        'photo.JPG',
        'clip.mov',
        'song.flac',
        'backup.tar.gz',
        'main.rs',
        'table.csv',
        'notes.md',
        'Makefile',
        '.env',
        'trailing.',
      ].map(fileKind),
    ).toEqual(['image', 'video', 'audio', 'archive', 'code', 'spreadsheet', 'text', 'other', 'other', 'other']);
    expect(render(FileIcon, { name: 'a  b.png', folder: false })).toContain('data-kind="image"');
    expect(render(FileIcon, { name: 'd', folder: true })).toContain('data-kind="folder"');
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
