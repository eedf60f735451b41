// Upload options for a bucket, or for every bucket of a connection: what the window's uploads are stored with.

import { useState } from 'react';
import { STORAGE_CLASSES, uploadOptionsSchema } from '../../src/upload-options.ts';
import type { UploadOptions } from '../../src/upload-options.ts';
import { useUploadOptions } from '../store/upload-options-store.ts';
import { Dialog } from './Dialog.tsx';
import { labelLines, parseLabelLines } from './labels-text.ts';

export function UploadOptionsDialog({
  connectionId,
  bucket,
  onClose,
}: {
  connectionId: string;
  bucket: string;
  onClose: () => void;
}) {
  const { byPlace, setOptions } = useUploadOptions();
  const ownOfBucket = byPlace[`${connectionId}\n${bucket}`];
  const [scope, setScope] = useState<'bucket' | 'connection'>(
    ownOfBucket || !byPlace[connectionId] ? 'bucket' : 'connection',
  );
  const shown = (scope === 'bucket' ? ownOfBucket : byPlace[connectionId]) ?? {};
  const [form, setForm] = useState(() => formOf(shown));
  const [problem, setProblem] = useState<string | undefined>();
  const field = (name: keyof typeof form) => ({
    value: form[name],
    onChange: (e: { target: { value: string } }) => setForm({ ...form, [name]: e.target.value }),
  });

  function save() {
    const metadata = parseLabelLines(form.metadata, 'Metadata');
    const tags = parseLabelLines(form.tags, 'Tags');
    if (typeof metadata === 'string' || typeof tags === 'string') {
      setProblem(typeof metadata === 'string' ? metadata : (tags as string));
      return;
    }
    const given: Record<string, unknown> = {
      storageClass: form.storageClass || undefined,
      cacheControl: form.cacheControl || undefined,
      contentType: form.contentType || undefined,
      metadata: Object.keys(metadata).length > 0 ? metadata : undefined,
      tags: Object.keys(tags).length > 0 ? tags : undefined,
      sse: form.sse || undefined,
      sseKmsKeyId: form.sseKmsKeyId || undefined,
    };
    const parsed = uploadOptionsSchema.safeParse(
      Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)),
    );
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]!.message);
      return;
    }
    setOptions(connectionId, scope === 'bucket' ? bucket : undefined, parsed.data);
    onClose();
  }

  return (
    <Dialog title="Upload options" onClose={onClose}>
      <form
        className="labels-editor"
        onSubmit={(event) => {
          event.preventDefault();
          save();
        }}
      >
        <label>
          Applies to
          <select
            value={scope}
            onChange={(e) => {
              const next = e.target.value as 'bucket' | 'connection';
              setScope(next);
              setForm(formOf((next === 'bucket' ? ownOfBucket : byPlace[connectionId]) ?? {}));
            }}
          >
            <option value="bucket">Uploads into {bucket}</option>
            <option value="connection">Uploads into any bucket of this connection without its own</option>
          </select>
        </label>
        <label>
          Storage class
          <select {...field('storageClass')}>
            <option value="">The bucket's default</option>
            {STORAGE_CLASSES.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Cache-Control
          <input {...field('cacheControl')} placeholder="max-age=86400" />
        </label>
        <label>
          Content-Type (instead of the type guessed from the name)
          <input {...field('contentType')} />
        </label>
        <label>
          Metadata (one name=value a line)
          <textarea rows={3} {...field('metadata')} />
        </label>
        <label>
          Tags (one name=value a line)
          <textarea rows={3} {...field('tags')} />
        </label>
        <label>
          Server-side encryption
          <select {...field('sse')}>
            <option value="">The bucket's default</option>
            <option value="AES256">AES256</option>
            <option value="aws:kms">aws:kms</option>
          </select>
        </label>
        <label>
          KMS key ID (with aws:kms)
          <input {...field('sseKmsKeyId')} />
        </label>
        {problem && (
          <p role="alert" className="error">
            {problem}
          </p>
        )}
        <div className="buttons">
          <button type="submit" className="primary">
            Save upload options
          </button>
          <button
            type="button"
            onClick={() => {
              setOptions(connectionId, scope === 'bucket' ? bucket : undefined, undefined);
              onClose();
            }}
          >
            Clear
          </button>
          <button type="button" data-autofocus onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function formOf(options: UploadOptions) {
  return {
    storageClass: options.storageClass ?? '',
    cacheControl: options.cacheControl ?? '',
    contentType: options.contentType ?? '',
    metadata: labelLines(options.metadata ?? {}),
    tags: labelLines(options.tags ?? {}),
    sse: options.sse ?? '',
    sseKmsKeyId: options.sseKmsKeyId ?? '',
  };
}
