// What the context menus of the browser offer, and for what: the selected objects and folders, the
// folder on screen (the table's empty area), and a bucket in the sidebar. Each item is an action the
// toolbar or a dialog already has; the menus only say which apply.

import type { RowRef } from '../store/browser-store.ts';
import type { MenuItem } from './ContextMenu.tsx';

/** What the browser does for a menu item: the same calls as its toolbar and dialogs. */
export interface BrowserActions {
  download(): void;
  copyLink(key: string): void;
  details(key: string): void;
  rename(row: RowRef): void;
  copyTo(move: boolean): void;
  delete(): void;
  sync(prefix: string): void;
  calculateSize(prefix: string): void;
  /** Bring a folder back to how it was at a moment (Restore to…). */
  restoreTo(prefix: string): void;
  newFolder(prefix: string): void;
  refresh(): void;
}

/** The menu of the selected rows: one object, one folder, or several. */
export function selectionMenu(selected: readonly RowRef[], act: BrowserActions): MenuItem[] {
  const one = selected.length === 1 ? selected[0] : undefined;
  const object = one?.kind === 'object' ? one : undefined;
  const folder = one?.kind === 'folder' ? one : undefined;
  const items: (MenuItem | false)[] = [
    { label: 'Download…', onSelect: act.download },
    object !== undefined && { label: 'Copy link', onSelect: () => act.copyLink(object.key) },
    object !== undefined && { label: 'Details', onSelect: () => act.details(object.key) },
    one !== undefined && { label: 'Rename…', onSelect: () => act.rename(one), separated: true },
    { label: 'Copy to…', onSelect: () => act.copyTo(false), separated: one === undefined },
    { label: 'Move to…', onSelect: () => act.copyTo(true) },
    { label: 'Delete…', onSelect: act.delete },
    folder !== undefined && { label: 'New folder…', onSelect: () => act.newFolder(folder.key), separated: true },
    folder !== undefined && { label: 'Sync with a folder…', onSelect: () => act.sync(folder.key) },
    folder !== undefined && { label: 'Calculate size', onSelect: () => act.calculateSize(folder.key) },
    folder !== undefined && { label: 'Restore to…', onSelect: () => act.restoreTo(folder.key) },
  ];
  return items.filter((item) => item !== false);
}

/** The menu of the folder on screen (a right-click on no row). */
export function folderOnScreenMenu(prefix: string, act: BrowserActions): MenuItem[] {
  return [
    { label: 'New folder…', onSelect: () => act.newFolder(prefix) },
    { label: 'Sync with a folder…', onSelect: () => act.sync(prefix) },
    { label: 'Calculate size', onSelect: () => act.calculateSize(prefix) },
    { label: 'Restore to…', onSelect: () => act.restoreTo(prefix) },
    { label: 'Refresh', onSelect: act.refresh, separated: true },
  ];
}
