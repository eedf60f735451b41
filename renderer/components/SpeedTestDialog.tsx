// Test this endpoint: the speed test in a dialog. The last result saved for the endpoint shows at once,
// with its date; Run (again) measures, with a progress bar and Cancel (Escape too); the result is two
// heatmaps, each with its table, and the best settings in words.

import { formatDate } from '../format.ts';
import { formatS3Url } from '../../src/s3-url.ts';
import { bestInWords, cleanupInWords } from '../../src/speed-test.ts';
import { shownResult, SPEED_TEST_BUDGETS_MS, useSpeedTest } from '../store/speed-test-store.ts';
import { Dialog } from './Dialog.tsx';
import { SpeedHeatmap } from './SpeedHeatmap.tsx';

function budgetLabel(ms: number): string {
  return ms < 60_000 ? `${ms / 1000} seconds` : ms === 60_000 ? '1 minute' : `${ms / 60_000} minutes`;
}

export function SpeedTestDialog() {
  const state = useSpeedTest();
  const { target, saved, budgetMs, running, cancelling, outcome, error, setBudget, run, cancel, close } = state;
  if (!target) return null;
  const place = formatS3Url({ bucket: target.bucket, key: target.prefix });
  const result = running ? undefined : shownResult(state);
  const justMeasured = outcome?.state === 'done';
  const left = outcome ? cleanupInWords(outcome.cleanup) : '';
  const progress = running?.progress;
  return (
    <Dialog title="Test this endpoint" onClose={close}>
      <div className="speed-test">
        <p className="muted">
          Measures this connection&apos;s store from here, in {place}: small objects (16 KiB to 2 MiB) with 1 to 256
          threads, and a large object&apos;s parts (5 to 64 MiB) with 1 to 64 at once, up and down. Its test objects go
          below a prefix of their own and are all deleted afterwards. Max speed, if set, holds it too.
        </p>
        <div className="speed-test-controls">
          <label>
            Time budget{' '}
            <select
              value={budgetMs}
              disabled={running !== undefined}
              onChange={(e) => setBudget(Number(e.target.value))}
            >
              {SPEED_TEST_BUDGETS_MS.map((ms) => (
                <option key={ms} value={ms}>
                  {budgetLabel(ms)}
                </option>
              ))}
            </select>
          </label>
          {running ? (
            <button type="button" data-autofocus disabled={cancelling} onClick={cancel}>
              {cancelling ? 'Cancelling…' : 'Cancel'}
            </button>
          ) : (
            <button type="button" className="primary" data-autofocus onClick={() => void run()}>
              {result ? 'Run again' : 'Run test'}
            </button>
          )}
        </div>
        {running && (
          <div className="speed-test-progress">
            <progress aria-label="Speed test progress" max={1} value={progress?.fraction ?? 0} />
            <p role="status">
              {cancelling
                ? 'Cancelling: deleting the test objects…'
                : progress?.phase === 'cleaning'
                  ? `Deleting the test objects in ${progress.place}…`
                  : progress
                    ? `${progress.cell ?? ''} (${progress.cellsDone} of ${progress.cellsTotal} cells)`
                    : 'Starting…'}
            </p>
          </div>
        )}
        {!running && outcome?.state === 'cancelled' && (
          <p role="status">Cancelled: nothing was saved{left ? '.' : ', and the test objects are deleted.'}</p>
        )}
        {!running && outcome?.state === 'failed' && (
          <p role="alert" className="error">
            {outcome.error.message}
          </p>
        )}
        {left && (
          <p role="alert" className="error">
            {left}
          </p>
        )}
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        {!running && saved === null && !result && outcome === undefined && (
          <p role="status">No speed test of this endpoint yet.</p>
        )}
        {result && (
          <section aria-label="Speed test result" className="speed-test-result">
            <p role="status">
              {justMeasured ? 'Measured' : 'Last measured'} {formatDate(result.measuredAt)} in{' '}
              {formatS3Url({ bucket: result.bucket, key: result.prefix })}, within {budgetLabel(result.budgetMs)}
              {justMeasured ? ', and saved for this endpoint.' : '.'}
            </p>
            <ul className="speed-test-best">
              {bestInWords(result).map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
            <SpeedHeatmap cells={result.cells} grid="objects" />
            <SpeedHeatmap cells={result.cells} grid="parts" />
          </section>
        )}
        <div className="buttons">
          <button type="button" onClick={close}>
            Close
          </button>
        </div>
      </div>
    </Dialog>
  );
}
