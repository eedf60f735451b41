// One object's details, and a presigned link to it.

import { formatBytes, formatDate } from '../format.ts';
import { useDetails } from '../store/details-store.ts';
import { Dialog } from './Dialog.tsx';

/** The details of the object the details store shows, if any (open one with useDetails' show). */
export function DetailsDialog() {
  const { target, details, link, error, copyLink, close } = useDetails();
  if (!target) return null;
  return (
    <Dialog key={`${target.connectionId}:${target.bucket}:${target.key}`} title={target.key} onClose={close}>
      {details && (
        <dl className="details">
          <dt>Size</dt><dd>{formatBytes(details.size)} ({details.size.toLocaleString()} bytes)</dd>
          <dt>Modified</dt><dd>{formatDate(details.lastModified)}</dd>
          <dt>Type</dt><dd>{details.contentType}</dd>
          <dt>ETag</dt><dd><code>{details.etag}</code></dd>
          <dt>Storage class</dt><dd>{details.storageClass ?? 'STANDARD'}</dd>
          {details.versionId && <><dt>Version</dt><dd><code>{details.versionId}</code></dd></>}
          {Object.entries(details.metadata).map(([k, v]) => <div key={k}><dt>{k}</dt><dd>{v}</dd></div>)}
        </dl>
      )}
      {link && <p><input readOnly aria-label="Presigned link" value={link} /></p>}
      {error && <p role="alert" className="error">{error}</p>}
      <div className="buttons"><button type="button" onClick={() => void copyLink()}>Copy link</button><button type="button" onClick={close}>Close</button></div>
    </Dialog>
  );
}
