// Download the selection (objects and folders) into a folder on the engine's machine.

import { useState } from 'react';
import type { FormEvent } from 'react';
import { api, request } from '../store/api.ts';
import { Dialog } from './Dialog.tsx';

export function DownloadDialog(props: { connectionId: string; bucket: string; keys: string[]; prefixes: string[]; defaultFolder: string; onClose: () => void }) {
  const [folder, setFolder] = useState(props.defaultFolder);
  const [requireVerified, setRequireVerified] = useState(false);
  const [error, setError] = useState<string>();
  async function browse() {
    const picked = await api().pickFolder(folder);
    if (picked) setFolder(picked);
  }
  async function submit(event: FormEvent) {
    event.preventDefault();
    try {
      await request('jobs.download', { connectionId: props.connectionId, bucket: props.bucket, keys: props.keys, prefixes: props.prefixes, targetFolder: folder, requireVerified });
      props.onClose();
    } catch (e) {
      setError((e as Error).message);
    }
  }
  const count = props.keys.length + props.prefixes.length;
  return (
    <Dialog title="Download" onClose={props.onClose}>
      <form onSubmit={(e) => void submit(e)} className="form">
        <p>{count} item{count === 1 ? '' : 's'} from {props.bucket}; folders keep their names and structure.</p>
        <label>Into folder <input required aria-label="Download folder" value={folder} onChange={(e) => setFolder(e.target.value)} /></label>
        <button type="button" onClick={() => void browse()}>Browse…</button>
        <label title="Objects without a checksum or an ETag Barge can check are otherwise saved and marked 'size only'">
          <input type="checkbox" checked={requireVerified} onChange={(e) => setRequireVerified(e.target.checked)} /> Only save objects whose content can be verified
        </label>
        {error && <p role="alert" className="error">{error}</p>}
        <div className="buttons"><button type="button" onClick={props.onClose}>Cancel</button><button type="submit">Download</button></div>
      </form>
    </Dialog>
  );
}
