// Rename an object or a folder: a server-side move to the new name (jobs.copy with move), shown with
// the other jobs. A folder's rename moves every key below it, so the dialog lists the first of them
// with the key each becomes, and says when there are more.
//
// A name already taken (the object, or a folder with keys in it) is never replaced silently: the
// dialog says so and offers Replace as a choice of its own (Enter and the Rename button never
// replace); without it the move keeps what is there and the source stays.

import { useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { renameProblem } from '../../src/entry-names.ts';
import { printable } from '../../src/unsafe-text.ts';
import type { RowRef } from '../store/browser-store.ts';
import { useFileActions } from '../store/file-actions-store.ts';
import type { RenamePreview } from '../store/file-actions-store.ts';
import { Dialog } from './Dialog.tsx';
import { Name } from './Name.tsx';

/** How long typing must pause before a folder's preview is listed again for the new name. */
const PREVIEW_PAUSE_MS = 250;

export function RenameDialog({
  connectionId,
  bucket,
  prefix,
  row,
  onClose,
}: {
  connectionId: string;
  bucket: string;
  /** The folder the row is in. */
  prefix: string;
  row: RowRef;
  onClose: () => void;
}) {
  const { rename, renamePreview, renameTargetTaken } = useFileActions();
  const folder = row.kind === 'folder';
  const [name, setName] = useState(row.name);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [preview, setPreview] = useState<RenamePreview | string>();
  // The name the user was asked about: it is taken, and Replace may move over it.
  const [taken, setTaken] = useState<string>();
  const problem = renameProblem(prefix, row.name, name, folder);
  // Said as soon as the name is changed; the name it has is refused only when it is submitted.
  const shownProblem = name === row.name ? undefined : problem;

  useEffect(() => {
    if (!folder) return;
    let current = true;
    const timer = setTimeout(() => {
      // The keys are the folder's whatever the name; a name refused maps them to nothing yet.
      renamePreview(connectionId, bucket, row.key, problem ? row.name : name).then(
        (found) => current && setPreview(found),
        (e: unknown) => current && setPreview((e as Error).message),
      );
    }, PREVIEW_PAUSE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [folder, connectionId, bucket, row, name, problem, renamePreview]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (problem) return setError(problem);
    await renameTo(false);
  }

  /** Rename, asking first when the name is taken; `replace` only from the Replace button. */
  async function renameTo(replace: boolean) {
    setBusy(true);
    try {
      if (!replace && (await renameTargetTaken(connectionId, bucket, prefix, row, name))) {
        setTaken(name);
        setBusy(false);
        return;
      }
      await rename(connectionId, bucket, prefix, row, name, replace);
      onClose();
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  }

  const what = folder ? `${row.name}/` : row.name;
  return (
    <Dialog
      title={
        <>
          Rename <Name text={what} />
        </>
      }
      label={`Rename ${printable(what)}`}
      onClose={onClose}
    >
      <form onSubmit={(e) => void submit(e)} className="form">
        <label>
          New name{' '}
          <input
            autoFocus
            value={name}
            aria-invalid={shownProblem !== undefined}
            onFocus={(e) => e.target.select()}
            onChange={(e) => {
              setName(e.target.value);
              setError(undefined);
              setTaken(undefined);
            }}
          />
        </label>
        <p className="hint">
          {folder
            ? 'Every object in the folder is copied to the new name by the store, ' +
              'then deleted once its copy is checked.'
            : 'The store copies the object to the new name, then deletes it once the copy is checked.'}
        </p>
        {folder && <RenameKeys preview={preview} renamed={!problem} />}
        {(error ?? shownProblem) && (
          <p role="alert" className="error">
            {error ?? shownProblem}
          </p>
        )}
        {taken !== undefined && (
          <div role="alert" className="error">
            <p>
              <Name text={folder ? `${taken}/` : taken} /> is already there
              {folder ? ': objects in it with the same names as these are replaced' : ''}. Replace?
            </p>
            <button type="button" disabled={busy} onClick={() => void renameTo(true)}>
              Replace
            </button>
          </div>
        )}
        <div className="buttons">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={busy}>
            Rename
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** The first keys a folder's rename moves, each with the key it becomes (once the name is one it takes). */
function RenameKeys({ preview, renamed }: { preview: RenamePreview | string | undefined; renamed: boolean }) {
  if (preview === undefined) return <p role="status">Listing the keys it moves…</p>;
  if (typeof preview === 'string')
    return (
      <p role="alert" className="error">
        {preview}
      </p>
    );
  if (preview.moves.length === 0) return <p role="status">The folder holds no objects.</p>;
  return (
    <>
      <ul className="rename-preview" aria-label="Keys it moves">
        {preview.moves.map((move) => (
          <li key={move.from}>
            <Name text={move.from} />
            {renamed && (
              <>
                {' → '}
                <Name text={move.to} />
              </>
            )}
          </li>
        ))}
      </ul>
      <p role="status">
        {preview.more
          ? `The first ${preview.moves.length.toLocaleString()} keys, and more.`
          : `${preview.moves.length.toLocaleString()} ${preview.moves.length === 1 ? 'key' : 'keys'}.`}
      </p>
    </>
  );
}
