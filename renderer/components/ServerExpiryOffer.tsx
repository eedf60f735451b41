// Expire on the server, offered in the delete dialog once its count passes the threshold (settings'
// expireOnServerAboveKeys): the store's lifecycle engine deletes the folders itself, where a delete
// from here would take hours or days. What it does is said before; it is confirmed by typing the
// name, as a large delete is; the rule is shown as the store read it back, with what the store
// dropped, the bucket's versioning, and that the store runs it later.

import { Fragment, useEffect, useRef, useState } from 'react';
import { describeRule, EXPIRY_RUNS_LATER, versioningNote } from '../../src/lifecycle-rules.ts';
import { printable } from '../../src/unsafe-text.ts';
import { useServerExpiry } from '../store/server-expiry-store.ts';
import { Name } from './Name.tsx';

export function ServerExpiryOffer({
  connectionId,
  bucket,
  prefixes,
  confirmName,
  objects,
  counting,
}: {
  connectionId: string;
  bucket: string;
  /** The folders to expire ("" the whole bucket). */
  prefixes: readonly string[];
  /** What the operator types to confirm: the prefix, or the bucket's name. */
  confirmName: string;
  /** The count so far, and whether it is still going. */
  objects: number;
  counting: boolean;
}) {
  const [asked, setAsked] = useState(false);
  const [typed, setTyped] = useState('');
  const { adding, added, error, expire } = useServerExpiry();
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (asked) field.current?.focus();
  }, [asked]);

  const where = prefixes.map((prefix, i) => (
    <Fragment key={prefix}>
      {i > 0 && ', '}
      {prefix === '' ? 'the whole bucket' : <Name text={prefix} />}
    </Fragment>
  ));
  const done = added.length === prefixes.length;
  return (
    <section className="expire-offer" aria-labelledby="expire-offer-title">
      <h3 id="expire-offer-title">Expire on the server</h3>
      <p>
        {objects.toLocaleString()} objects{counting ? ' and counting' : ''}: a delete from here sends a request for
        every thousand and may take hours. The store can delete them itself. A lifecycle rule for {where} expires
        current versions, noncurrent versions, delete markers left alone and unfinished uploads, in the store&apos;s own
        time (typically within a day). The bucket&apos;s other lifecycle rules are kept, and the rule can be removed
        until the store acts (<code>barge lifecycle rm</code>).
      </p>
      {!asked && added.length === 0 && (
        <div className="buttons">
          <button type="button" onClick={() => setAsked(true)}>
            Expire on the server…
          </button>
        </div>
      )}
      {asked && !done && (
        <>
          <label>
            Type{' '}
            <code>
              <Name text={confirmName} />
            </code>{' '}
            to have the store delete everything below {where}{' '}
            <input
              ref={field}
              aria-label="Type the name to expire on the server"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
            />
          </label>
          <div className="buttons">
            <button type="button" onClick={() => setAsked(false)} disabled={adding}>
              Back
            </button>
            <button
              type="button"
              className="danger"
              disabled={typed !== confirmName || adding}
              onClick={() => void expire(connectionId, bucket, prefixes)}
            >
              {adding ? 'Adding the rule…' : 'Add the expiry rule'}
            </button>
          </div>
        </>
      )}
      <div role="status" aria-live="polite">
        {added.map(({ rule, dropped, versioning, already }) => (
          <div key={rule.id} className="expire-rule">
            <p>
              Rule <code>{printable(rule.id)}</code> {already ? 'was in' : 'added to'} <Name text={bucket} />
              {already ? ' already: nothing changed' : ''}. As the store reads it back: {printable(describeRule(rule))}.
            </p>
            {dropped.length > 0 && (
              <p className="warning">
                The store did not keep part of the rule: {dropped.join(', ')}. It does the rest.
                {dropped.includes('the abort of incomplete uploads') &&
                  ' Clean up the unfinished uploads from here (barge abort-uploads).'}
              </p>
            )}
            <p className="hint">{versioningNote(versioning)}</p>
          </div>
        ))}
        {done && <p>{EXPIRY_RUNS_LATER}</p>}
      </div>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </section>
  );
}
