// New folder: a name, checked as it is typed by the rule the engine applies again (no "/", not
// empty, a key S3 takes); made as the empty "name/" marker by the file-actions store.

import { useState } from 'react';
import type { FormEvent } from 'react';
import { newFolderNameProblem } from '../../src/entry-names.ts';
import { printable } from '../../src/unsafe-text.ts';
import { useFileActions } from '../store/file-actions-store.ts';
import { Dialog } from './Dialog.tsx';
import { Name } from './Name.tsx';

export function NewFolderDialog({
  connectionId,
  bucket,
  prefix,
  onClose,
}: {
  connectionId: string;
  bucket: string;
  prefix: string;
  onClose: () => void;
}) {
  const makeFolder = useFileActions((s) => s.makeFolder);
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const problem = name === '' ? undefined : newFolderNameProblem(prefix, name);
  const where = `${bucket}/${prefix}`;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const refused = newFolderNameProblem(prefix, name);
    if (refused) return setError(refused);
    setBusy(true);
    try {
      await makeFolder(connectionId, bucket, prefix, name);
      onClose();
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  }

  return (
    <Dialog
      title={
        <>
          New folder in <Name text={where} />
        </>
      }
      label={`New folder in ${printable(where)}`}
      onClose={onClose}
    >
      <form onSubmit={(e) => void submit(e)} className="form">
        <label>
          Folder name{' '}
          <input
            autoFocus
            value={name}
            aria-invalid={problem !== undefined}
            onChange={(e) => {
              setName(e.target.value);
              setError(undefined);
            }}
          />
        </label>
        <p className="hint">
          An empty folder is a zero-byte object named with a "/" at its end, as the AWS console makes it.
        </p>
        {(error ?? problem) && (
          <p role="alert" className="error">
            {error ?? problem}
          </p>
        )}
        <div className="buttons">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={busy}>
            Create
          </button>
        </div>
      </form>
    </Dialog>
  );
}
