// One object's details, and a presigned link to it.

import { formatBytes, formatDate } from '../format.ts';
import { LINK_LIFETIMES, useDetails } from '../store/details-store.ts';
import { printable } from '../../src/unsafe-text.ts';
import { Dialog } from './Dialog.tsx';
import { Name } from './Name.tsx';

/** The details of the object the details store shows, if any (open one with useDetails' show). */
export function DetailsDialog() {
  const { target, details, link, linkSeconds, setLinkSeconds, error, copyLink, close } = useDetails();
  const metadata = details ? Object.entries(details.metadata) : [];
  if (!target) return null;
  return (
    <Dialog
      key={`${target.connectionId}:${target.bucket}:${target.key}`}
      title={<Name text={target.key} />}
      label={printable(target.key)}
      onClose={close}
    >
      {details && (
        <dl className="details">
          <dt>Size</dt>
          <dd>
            {formatBytes(details.size)} ({details.size.toLocaleString()} bytes)
          </dd>
          <dt>Modified</dt>
          <dd>{formatDate(details.lastModified)}</dd>
          <dt>Type</dt>
          <dd>{details.contentType}</dd>
          <dt>ETag</dt>
          <dd>
            <code>{details.etag}</code>
          </dd>
          <dt>Storage class</dt>
          <dd>{details.storageClass ?? 'STANDARD'}</dd>
          <dt>Cache-Control</dt>
          <dd>{details.cacheControl ?? 'none'}</dd>
          {details.versionId && (
            <>
              <dt>Version</dt>
              <dd>
                <code>{details.versionId}</code>
              </dd>
            </>
          )}
        </dl>
      )}
      {metadata.length > 0 && (
        // A key and its value on one row each: a grid of pairs misread as alternating names and values.
        <table className="metadata" aria-label="Metadata">
          <thead>
            <tr>
              <th scope="col">Metadata</th>
              <th scope="col">Value</th>
            </tr>
          </thead>
          <tbody>
            {metadata.map(([key, value]) => (
              <tr key={key}>
                <th scope="row">{key}</th>
                <td>{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <label className="inline">
        Link valid for{' '}
        <select
          aria-label="Link valid for"
          value={linkSeconds}
          onChange={(e) => setLinkSeconds(Number(e.target.value))}
        >
          {LINK_LIFETIMES.map((lifetime) => (
            <option key={lifetime.seconds} value={lifetime.seconds}>
              {lifetime.label}
            </option>
          ))}
        </select>
      </label>
      {link && (
        <p>
          <input className="link" readOnly aria-label="Presigned link" value={link} />
        </p>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <div className="buttons">
        <button type="button" onClick={() => void copyLink()}>
          Copy link
        </button>
        <button type="button" onClick={close}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
