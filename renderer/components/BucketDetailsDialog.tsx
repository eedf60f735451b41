// A bucket's details: the region it is in (which its requests are signed for, and on AWS sent to),
// and whether it keeps versions. The region is the store's word where it has said; else the
// connection's, said as such.

import { useEffect, useState } from 'react';
import type { BucketRegion, BucketVersioning } from '../../src/contract/models.ts';
import { useBrowser } from '../store/browser-store.ts';
import { Dialog } from './Dialog.tsx';
import { Name } from './Name.tsx';
import { printable } from '../../src/unsafe-text.ts';

const VERSIONING: Readonly<Record<BucketVersioning, string>> = {
  enabled: 'On: a delete hides an object and keeps its versions',
  suspended: 'Suspended: versions made before are kept',
  off: 'Off: a delete removes an object for good',
};

export function BucketDetailsDialog({
  connectionId,
  name,
  onClose,
}: {
  connectionId: string;
  name: string;
  onClose: () => void;
}) {
  const readRegion = useBrowser((s) => s.region);
  const readVersioning = useBrowser((s) => s.versioning);
  const [region, setRegion] = useState<BucketRegion>();
  const [versioning, setVersioning] = useState<BucketVersioning | 'unknown'>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    let current = true;
    readRegion(connectionId, name).then(
      (answer) => current && setRegion(answer),
      (e: Error) => current && setError(e.message),
    );
    void readVersioning(connectionId, name).then((answer) => current && setVersioning(answer ?? 'unknown'));
    return () => {
      current = false;
    };
  }, [connectionId, name, readRegion, readVersioning]);

  return (
    <Dialog
      title={
        <>
          Bucket <Name text={name} />
        </>
      }
      label={`Bucket ${printable(name)}`}
      onClose={onClose}
    >
      <dl className="details">
        <dt>Region</dt>
        <dd>
          {region ? (
            <>
              {region.region}{' '}
              <span className="hint">
                {region.told ? '(as the store says)' : '(the connection\u2019s: the store does not say)'}
              </span>
            </>
          ) : error ? (
            'unknown'
          ) : (
            'Asking the store…'
          )}
        </dd>
        <dt>Versioning</dt>
        <dd>
          {versioning === undefined
            ? 'Asking the store…'
            : versioning === 'unknown'
              ? 'The store does not say'
              : VERSIONING[versioning]}
        </dd>
      </dl>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <div className="buttons">
        <button type="button" data-autofocus onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
