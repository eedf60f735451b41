// A new folder's name as it is typed, checked by the rule the engine applies again, and the folder
// made from it: one piece for the New folder dialog and the Copy to… picker.

import { useState } from 'react';
import type { FormEvent } from 'react';
import { newFolderNameProblem } from '../../src/entry-names.ts';
import { useFileActions } from '../store/file-actions-store.ts';

export interface NewFolderName {
  readonly name: string;
  /** What is wrong with the name typed, or with making it; undefined while nothing is. */
  readonly problem: string | undefined;
  readonly busy: boolean;
  readonly type: (name: string) => void;
  /** Makes the folder (the form's submit), then hands on its key ("prefix/name/"). */
  readonly submit: (event: FormEvent) => Promise<void>;
}

export function useNewFolderName(
  place: { readonly connectionId: string; readonly bucket: string; readonly prefix: string },
  made: (key: string) => void,
): NewFolderName {
  const makeFolder = useFileActions((s) => s.makeFolder);
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const typed = name === '' ? undefined : newFolderNameProblem(place.prefix, name);
  return {
    name,
    problem: error ?? typed,
    busy,
    type(next) {
      setName(next);
      setError(undefined);
    },
    async submit(event) {
      event.preventDefault();
      // A form inside another dialog's: Enter here makes the folder and nothing else.
      event.stopPropagation();
      const refused = newFolderNameProblem(place.prefix, name);
      if (refused) return setError(refused);
      setBusy(true);
      try {
        made(await makeFolder(place.connectionId, place.bucket, place.prefix, name));
      } catch (e) {
        setError((e as Error).message);
        setBusy(false);
      }
    },
  };
}

/** The name's field, marked invalid while its problem shows. */
export function FolderNameInput({ label, folder }: { label: string; folder: NewFolderName }) {
  return (
    <label>
      {label}{' '}
      <input
        autoFocus
        value={folder.name}
        aria-invalid={folder.problem !== undefined}
        onChange={(e) => folder.type(e.target.value)}
      />
    </label>
  );
}

/** What is wrong, said where a screen reader hears it at once. */
export function FolderNameProblem({ folder }: { folder: NewFolderName }) {
  if (folder.problem === undefined) return null;
  return (
    <p role="alert" className="error">
      {folder.problem}
    </p>
  );
}
