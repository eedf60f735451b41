// One object's details, and a presigned link to it.

import { useEffect, useState } from 'react';
import type { ObjectDetails } from '../../src/contract/models.ts';
import { formatBytes, formatDate } from '../format.ts';
import { request } from '../store/api.ts';
import { Dialog } from './Dialog.tsx';

export function DetailsDialog({ connectionId, bucket, objectKey, onClose }: { connectionId: string; bucket: string; objectKey: string; onClose: () => void }) {
  const [details, setDetails] = useState<ObjectDetails>();
  const [link, setLink] = useState<string>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    request('objects.details', { connectionId, bucket, key: objectKey }).then(setDetails, (e: Error) => setError(e.message));
  }, [connectionId, bucket, objectKey]);
  async function presign() {
    try {
      const { url } = await request('objects.presign', { connectionId, bucket, key: objectKey, expiresInSeconds: 3600 });
      setLink(url);
      await navigator.clipboard.writeText(url).catch(() => undefined);
    } catch (e) {
      setError((e as Error).message);
    }
  }
  return (
    <Dialog title={objectKey} onClose={onClose}>
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
      <div className="buttons"><button type="button" onClick={() => void presign()}>Copy link</button><button type="button" onClick={onClose}>Close</button></div>
    </Dialog>
  );
}
