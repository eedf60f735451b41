// New folder: a name, checked as it is typed by the rule the engine applies again (no "/", not
// empty, a key S3 takes); made as the empty "name/" marker by the file-actions store.

import { printable } from '../../src/unsafe-text.ts';
import { Dialog } from './Dialog.tsx';
import { Name } from './Name.tsx';
import { FolderNameInput, FolderNameProblem, useNewFolderName } from './NewFolderName.tsx';

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
  const folder = useNewFolderName({ connectionId, bucket, prefix }, onClose);
  const where = `${bucket}/${prefix}`;
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
      <form onSubmit={(e) => void folder.submit(e)} className="form">
        <FolderNameInput label="Folder name" folder={folder} />
        <p className="hint">
          An empty folder is a zero-byte object named with a "/" at its end, as the AWS console makes it.
        </p>
        <FolderNameProblem folder={folder} />
        <div className="buttons">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={folder.busy}>
            Create
          </button>
        </div>
      </form>
    </Dialog>
  );
}
