// A folder picker for the machine that runs Barge, where the window has no native one (a browser on
// the web host): it browses that machine's folders through fs.listFolders, below its download root.
//
// Keyboard: the list takes the arrows (Home and End too) and a first letter to move; Enter or Right
// opens the folder highlighted; Backspace or Left goes up one level. "Choose this folder" picks the
// folder listed, whose whole path is shown above the list. "New folder" makes one in the folder
// listed and opens it, as a save dialog's does.

import { useCallback, useEffect, useRef, useState } from 'react';
import type { FormEvent, KeyboardEvent } from 'react';
import type { FolderListing } from '../../src/contract/models.ts';
import { useHostFiles } from '../store/host-files-store.ts';
import { Dialog } from './Dialog.tsx';
import { Name } from './Name.tsx';

/** The last part of a whole path ("/a/b/" → "b"), on either kind of machine. */
function baseName(folder: string): string {
  return (
    folder
      .replace(/[\\/]+$/, '')
      .split(/[\\/]/)
      .pop() ?? folder
  );
}

export function FolderPicker({
  machineName,
  start,
  onChoose,
  onClose,
}: {
  machineName: string;
  /** The folder shown first (the one typed in the form); where it cannot be listed, the default one. */
  start: string | undefined;
  onChoose: (folder: string) => void;
  onClose: () => void;
}) {
  const listFolders = useHostFiles((s) => s.listFolders);
  const makeFolder = useHostFiles((s) => s.makeFolder);
  /** The new folder's name while it is typed; undefined: no new folder under way. */
  const [newName, setNewName] = useState<string>();
  const [listing, setListing] = useState<FolderListing>();
  const [active, setActive] = useState(0);
  const [error, setError] = useState<string>();
  const [loading, setLoading] = useState(true);
  const list = useRef<HTMLUListElement>(null);
  // Answers that arrive after a later request are dropped: the list shows the last folder asked for.
  const asked = useRef(0);

  /** List a folder; the reason it cannot be (shown too), or undefined. */
  const show = useCallback(
    async (folder: string | undefined, highlight?: string): Promise<string | undefined> => {
      const mine = ++asked.current;
      setLoading(true);
      try {
        const next = await listFolders(folder);
        if (mine !== asked.current) return undefined;
        setListing(next);
        setError(undefined);
        setActive(Math.max(0, highlight === undefined ? 0 : next.folders.indexOf(highlight)));
        return undefined;
      } catch (e) {
        const reason = (e as Error).message;
        if (mine === asked.current) setError(reason);
        return reason;
      } finally {
        if (mine === asked.current) setLoading(false);
      }
    },
    [listFolders],
  );

  // Once, as the picker opens: the folder typed in the form; where that cannot be listed (it is not
  // there yet, or it is outside what the host shows), the default folder, with the reason kept.
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current) return;
    opened.current = true;
    void (async () => {
      const reason = start ? await show(start) : undefined;
      if (start && reason === undefined) return;
      if ((await show(undefined)) === undefined && reason) setError(reason);
    })();
  }, [start, show]);

  useEffect(() => {
    list.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [active, listing]);

  const folders = listing?.folders ?? [];
  const open = (name: string | undefined) => {
    if (listing === undefined || name === undefined) return;
    // The host's own separator: a Windows path has backslashes and no slash.
    const separator = listing.path.includes('\\') && !listing.path.includes('/') ? '\\' : '/';
    void show(`${listing.path.replace(/[\\/]+$/, '')}${separator}${name}`);
  };
  const up = () => {
    if (listing?.parent !== undefined) void show(listing.parent, baseName(listing.path));
  };

  function onKeyDown(event: KeyboardEvent<HTMLUListElement>) {
    const last = folders.length - 1;
    const move = (to: number) => {
      event.preventDefault();
      setActive(Math.min(Math.max(to, 0), Math.max(last, 0)));
    };
    switch (event.key) {
      case 'ArrowDown':
        return move(active + 1);
      case 'ArrowUp':
        return move(active - 1);
      case 'Home':
        return move(0);
      case 'End':
        return move(last);
      case 'PageDown':
        return move(active + 10);
      case 'PageUp':
        return move(active - 10);
      case 'Enter':
      case 'ArrowRight':
        event.preventDefault();
        return open(folders[active]);
      case 'Backspace':
      case 'ArrowLeft':
        event.preventDefault();
        return up();
    }
    // A letter goes to the next folder whose name begins with it.
    if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
      const letter = event.key.toLocaleLowerCase();
      const order = [...folders.keys()].map((i) => (active + 1 + i) % folders.length);
      const found = order.find((i) => folders[i]!.toLocaleLowerCase().startsWith(letter));
      if (found !== undefined) move(found);
    }
  }

  async function makeNew(event: FormEvent) {
    event.preventDefault();
    if (!listing || newName === undefined) return;
    const mine = ++asked.current;
    setLoading(true);
    try {
      const made = await makeFolder(listing.path, newName);
      if (mine !== asked.current) return;
      setListing(made);
      setActive(0);
      setError(undefined);
      setNewName(undefined);
      list.current?.focus();
    } catch (e) {
      if (mine === asked.current) setError((e as Error).message);
    } finally {
      if (mine === asked.current) setLoading(false);
    }
  }

  const optionId = (index: number) => `folder-option-${index}`;
  return (
    <Dialog title={`Choose a folder on ${machineName}`} onClose={onClose}>
      <div className="folder-picker">
        <p className="folder-path">
          Folder: <code>{listing?.path ?? '…'}</code>
        </p>
        <div className="folder-picker-actions">
          <button type="button" disabled={listing?.parent === undefined} onClick={up}>
            Up one level
          </button>
          <button
            type="button"
            disabled={!listing || newName !== undefined}
            onClick={() => {
              setNewName('');
              setError(undefined);
            }}
          >
            New folder
          </button>
          <span className="hint" role="status" aria-live="polite">
            {loading
              ? 'Listing…'
              : listing
                ? `${folders.length.toLocaleString()} ` +
                  `folder${folders.length === 1 ? '' : 's'}${listing.truncated ? ' (the first ones only)' : ''}`
                : ''}
          </span>
        </div>
        {newName !== undefined && (
          <form className="new-folder" onSubmit={(event) => void makeNew(event)}>
            <input
              aria-label={`Name of the new folder in ${listing?.path ?? 'this folder'}`}
              value={newName}
              autoFocus
              onChange={(event) => setNewName(event.target.value)}
              // Escape puts the name away, not the whole picker.
              onKeyDown={(event) => {
                if (event.key === 'Escape') {
                  event.preventDefault();
                  event.stopPropagation();
                  setNewName(undefined);
                  list.current?.focus();
                }
              }}
            />
            <button type="submit" disabled={newName.trim() === '' || loading}>
              Make it
            </button>
            <button
              type="button"
              aria-label="Cancel the new folder"
              onClick={() => {
                setNewName(undefined);
                list.current?.focus();
              }}
            >
              Cancel
            </button>
          </form>
        )}
        <ul
          ref={list}
          className="folder-list"
          role="listbox"
          aria-label={`Folders in ${listing?.path ?? 'the folder'}`}
          tabIndex={0}
          data-autofocus
          aria-activedescendant={folders.length > 0 ? optionId(active) : undefined}
          onKeyDown={onKeyDown}
        >
          {folders.map((name, index) => (
            <li
              key={name}
              id={optionId(index)}
              role="option"
              aria-selected={index === active}
              className={index === active ? 'active' : undefined}
              onClick={() => setActive(index)}
              onDoubleClick={() => open(name)}
            >
              <Name text={name} />
            </li>
          ))}
        </ul>
        {listing && folders.length === 0 && <p className="hint">No folders in here.</p>}
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <p className="hint">Enter opens the highlighted folder; Backspace goes up one level.</p>
      </div>
      <div className="buttons">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="button" disabled={!listing} onClick={() => listing && onChoose(listing.path)}>
          Choose this folder
        </button>
      </div>
    </Dialog>
  );
}
