// One object's details, and a presigned link to it.

import { formatBytes, formatDate } from '../format.ts';
import { LINK_LIFETIMES, useDetails } from '../store/details-store.ts';
import { printable } from '../../src/unsafe-text.ts';
import { Dialog } from './Dialog.tsx';
import { useState } from 'react';
import { labelLines, parseLabelLines } from './labels-text.ts';
import { Name } from './Name.tsx';

/** The details of the object the details store shows, if any (open one with useDetails' show). */
export function DetailsDialog() {
  const { target, details, link, linkSeconds, setLinkSeconds, error, copyLink, close, tags } = useDetails();
  const [editing, setEditing] = useState(false);
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
      {tags && !tags.available && <p>Tags: not available ({tags.why})</p>}
      {tags?.available && Object.keys(tags.value).length > 0 && (
        <table className="metadata" aria-label="Tags">
          <thead>
            <tr>
              <th scope="col">Tag</th>
              <th scope="col">Value</th>
            </tr>
          </thead>
          <tbody>
            {Object.entries(tags.value).map(([key, value]) => (
              <tr key={key}>
                <th scope="row">{key}</th>
                <td>{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {details && editing && (
        <LabelsEditor
          metadata={details.metadata}
          tags={tags?.available ? tags.value : {}}
          onDone={() => setEditing(false)}
        />
      )}
      {details && !editing && (
        <p>
          <button type="button" onClick={() => setEditing(true)}>
            Edit metadata and tags
          </button>
        </p>
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

/**
 * Metadata and tags as "name=value" lines; Save replaces both on the object (a copy of it onto
 * itself, keeping its bytes, headers and storage class), and the store's answer is shown.
 */
function LabelsEditor({
  metadata,
  tags,
  onDone,
}: {
  metadata: Readonly<Record<string, string>>;
  tags: Readonly<Record<string, string>>;
  onDone: () => void;
}) {
  const { saveLabels, saving } = useDetails();
  const [metadataText, setMetadataText] = useState(labelLines(metadata));
  const [tagsText, setTagsText] = useState(labelLines(tags));
  const [problem, setProblem] = useState<string | undefined>();
  async function save() {
    const newMetadata = parseLabelLines(metadataText, 'Metadata');
    const newTags = parseLabelLines(tagsText, 'Tags');
    const refused = [newMetadata, newTags].find((parsed) => typeof parsed === 'string');
    setProblem(refused);
    if (refused !== undefined || typeof newMetadata === 'string' || typeof newTags === 'string') return;
    if (await saveLabels(newMetadata, newTags)) onDone();
  }
  return (
    <form
      className="labels-editor"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <label>
        Metadata (one name=value a line)
        <textarea rows={4} value={metadataText} onChange={(e) => setMetadataText(e.target.value)} />
      </label>
      <label>
        Tags (one name=value a line, 10 at most)
        <textarea rows={3} value={tagsText} onChange={(e) => setTagsText(e.target.value)} />
      </label>
      {problem && (
        <p role="alert" className="error">
          {problem}
        </p>
      )}
      <div className="buttons">
        <button type="submit" className="primary" disabled={saving}>
          {saving ? 'Saving…' : 'Save metadata and tags'}
        </button>
        <button type="button" onClick={onDone}>
          Cancel editing
        </button>
      </div>
    </form>
  );
}
