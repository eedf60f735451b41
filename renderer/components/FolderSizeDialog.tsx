// A folder's size, per storage class, as it is counted (Calculate size).

import { formatBytes } from '../format.ts';
import { useFolderSize } from '../store/folder-size-store.ts';
import { sizeTotals } from '../../src/prefix-size.ts';
import { printable } from '../../src/unsafe-text.ts';
import { Dialog } from './Dialog.tsx';
import { Name } from './Name.tsx';

export function FolderSizeDialog() {
  const { target, size, counting, stopped, error, stop, close } = useFolderSize();
  if (!target) return null;
  const where = target.prefix || target.bucket;
  const totals = sizeTotals(size);
  return (
    <Dialog
      key={`${target.connectionId}:${target.bucket}:${target.prefix}`}
      title={
        <>
          Size of <Name text={where} />
        </>
      }
      label={`Size of ${printable(where)}`}
      onClose={close}
    >
      <table className="metadata" aria-label="Size by storage class">
        <thead>
          <tr>
            <th scope="col">Storage class</th>
            <th scope="col">Objects</th>
            <th scope="col">Size</th>
          </tr>
        </thead>
        <tbody>
          {size.classes.map((entry) => (
            <tr key={entry.storageClass}>
              <th scope="row">{entry.storageClass}</th>
              <td>{entry.objects.toLocaleString()}</td>
              <td>{formatBytes(entry.bytes)}</td>
            </tr>
          ))}
          <tr>
            <th scope="row">Total</th>
            <td>{totals.objects.toLocaleString()}</td>
            <td>{formatBytes(totals.bytes)}</td>
          </tr>
        </tbody>
      </table>
      <p role="status">
        {counting
          ? `Counting… ${totals.objects.toLocaleString()} objects so far`
          : stopped
            ? 'Stopped: the folder holds more than counted.'
            : error
              ? ''
              : 'Counted.'}
      </p>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <div className="buttons">
        {counting && (
          <button type="button" onClick={stop}>
            Stop
          </button>
        )}
        <button type="button" data-autofocus onClick={close}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
