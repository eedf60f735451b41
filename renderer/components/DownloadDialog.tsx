// Download the selection (objects and folders) into a folder on the engine's machine.
//
// In a browser that machine is the web host's, not the one the browser runs on: the dialog says so,
// names it, and browses its folders with a picker of its own (FolderPicker: a browser's native
// dialogs see only its own disk). A folder is given whole: a relative one is refused here and by
// the service alike. Objects (not folders) can also be saved on the browser's own computer: each
// one a download of the browser's, streamed through the host ("Save to this computer").

import { useState } from 'react';
import type { FormEvent } from 'react';
import { useConnections } from '../store/connections-store.ts';
import { useJobs } from '../store/jobs-store.ts';
import { Dialog } from './Dialog.tsx';
import { MAX_SAVED_TO_COMPUTER, useHostFiles } from '../store/host-files-store.ts';
import { useFolderField } from './FolderField.tsx';
import { IF_EXISTS_LABELS, ifExistsSchema } from '../../src/if-exists.ts';
import type { IfExists } from '../../src/if-exists.ts';
import { isWholePath, relativePathProblem } from '../../src/local-path.ts';

export function DownloadDialog(props: {
  connectionId: string;
  bucket: string;
  keys: string[];
  prefixes: string[];
  defaultFolder: string;
  onClose: () => void;
}) {
  const [requireVerified, setRequireVerified] = useState(false);
  const [notice, setNotice] = useState<string>();
  // Nothing is replaced unless the user says so: by default the window asks, file by file.
  const [ifExists, setIfExists] = useState<IfExists>('ask');
  const [error, setError] = useState<string>();
  const host = useConnections((s) => s.host);
  const download = useJobs((s) => s.download);
  const saveToComputer = useHostFiles((s) => s.saveToComputer);
  // Electron's window is on the machine that saves the files, with its native dialog; a browser's is not.
  const onHost = host?.kind === 'web';
  const { folder, field, picker } = useFolderField({
    label: 'Into folder',
    ariaLabel: 'Download folder',
    initial: props.defaultFolder,
    ...(onHost ? { describedBy: 'download-where' } : {}),
    onChosen: () => setError(undefined),
  });
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!isWholePath(folder)) return setError(relativePathProblem(folder));
    try {
      await download({
        connectionId: props.connectionId,
        bucket: props.bucket,
        keys: props.keys,
        prefixes: props.prefixes,
        targetFolder: folder,
        requireVerified,
        ifExists,
      });
      props.onClose();
    } catch (e) {
      setError((e as Error).message);
    }
  }
  async function saveHere() {
    try {
      const sizeOnly = await saveToComputer(props.connectionId, props.bucket, props.keys, requireVerified);
      // Saved all the same, as asked: said here, where the user still looks, not lost with the dialog.
      if (sizeOnly.length > 0)
        return setNotice(
          `Saving. ${sizeOnly.length === 1 ? `${sizeOnly[0]} is` : `${sizeOnly.length} objects are`} checked ` +
            `for size only: the store gives no checksum or ETag Barge can check them by.`,
        );
      props.onClose();
    } catch (e) {
      setError((e as Error).message);
    }
  }
  const count = props.keys.length + props.prefixes.length;
  const notHere =
    props.prefixes.length > 0
      ? 'Folders are saved on the host only: select objects to save them here.'
      : props.keys.length > MAX_SAVED_TO_COMPUTER
        ? `At most ${MAX_SAVED_TO_COMPUTER} objects at once are saved here.`
        : undefined;
  return (
    <Dialog title="Download" onClose={props.onClose}>
      <form onSubmit={(e) => void submit(e)} className="form">
        <p>
          {count} item{count === 1 ? '' : 's'} from {props.bucket}; folders keep their names and structure.
        </p>
        {onHost && (
          <p className="where" id="download-where">
            Files are saved on the machine running Barge (<strong>{host.machineName}</strong>)
            {host.downloadRoot ? (
              <>
                , below <code>{host.downloadRoot}</code>
              </>
            ) : null}
            , not on this computer.
          </p>
        )}
        {field}
        <label>
          If a file is already there{' '}
          <select
            aria-label="If a file is already there"
            value={ifExists}
            onChange={(e) => setIfExists(e.target.value as IfExists)}
          >
            {ifExistsSchema.options.map((choice) => (
              <option key={choice} value={choice}>
                {IF_EXISTS_LABELS[choice]}
              </option>
            ))}
          </select>
        </label>
        <label
          className="inline"
          title="Objects without a checksum or an ETag Barge can check are otherwise saved and marked 'size only'"
        >
          <input
            type="checkbox"
            checked={requireVerified}
            onChange={(event) => setRequireVerified(event.target.checked)}
          />{' '}
          Only save objects whose content can be verified
        </label>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        {notice && (
          <p role="status" className="warning">
            {notice}
          </p>
        )}
        {onHost && (
          <div className="save-here">
            <button
              type="button"
              disabled={notHere !== undefined}
              aria-describedby="save-here-how"
              onClick={() => void saveHere()}
            >
              Save to this computer
            </button>
            <span id="save-here-how" className="hint">
              {notHere ?? "Through this browser's own downloads, one file per object."}
            </span>
          </div>
        )}
        <div className="buttons">
          <button type="button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit">Download</button>
        </div>
      </form>
      {picker}
    </Dialog>
  );
}
