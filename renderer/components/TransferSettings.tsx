// The Threads, Part size and Max speed sliders. They change the running engine: Threads and Max
// speed at once, for every job together; Part size for each file that starts after the change.

import { useEffect, useRef, useState } from 'react';
import { MIB } from '../../src/byte-units.ts';
import { MAX_THREADS, MIN_THREADS } from '../../src/settings.ts';
import { formatBytes } from '../format.ts';
import { nearestStep, PART_SIZE_STEPS } from '../part-size-steps.ts';
import { MAX_SPEED_STEPS, nearestSpeedStep, speedLabel } from '../max-speed-steps.ts';
import { useSettings } from '../store/settings-store.ts';

/**
 * Per thread, rounded up: an upload's two 256 KiB read buffers, a download's 1 MiB write buffer and 64 KiB read buffer.
 */
const BUFFER_BYTES_PER_THREAD = 1.25 * MIB;
const SEND_DELAY_MS = 150;

export function TransferSettings() {
  const { settings, update, error } = useSettings();
  const [threads, setThreads] = useState(settings?.threads ?? 64);
  const [partStep, setPartStep] = useState(nearestStep(settings?.partSizeBytes ?? 16 * MIB));
  const [speedStep, setSpeedStep] = useState(nearestSpeedStep(settings?.maxRate ?? 0));
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const pending = useRef<Parameters<typeof update>[0]>({});
  useEffect(() => {
    if (settings) {
      setThreads(settings.threads);
      setPartStep(nearestStep(settings.partSizeBytes));
      setSpeedStep(nearestSpeedStep(settings.maxRate));
    }
  }, [settings?.threads, settings?.partSizeBytes, settings?.maxRate]);

  // Sent shortly after the slider stops moving (well within a second), not on every pixel.
  const send = (patch: Parameters<typeof update>[0]) => {
    // Both sliders' changes go together: moving one right after the other loses neither.
    pending.current = { ...pending.current, ...patch };
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const all = pending.current;
      pending.current = {};
      void update(all);
    }, SEND_DELAY_MS);
  };

  return (
    <section className="settings" aria-label="Transfer settings">
      <label>
        <span>
          Threads <output>{threads}</output>
        </span>
        <input
          type="range"
          aria-label="Threads"
          min={MIN_THREADS}
          max={MAX_THREADS}
          value={threads}
          onChange={(e) => {
            const v = Number(e.target.value);
            setThreads(v);
            send({ threads: v });
          }}
        />
      </label>
      <label>
        <span>
          Part size <output>{formatBytes(PART_SIZE_STEPS[partStep]!)}</output>
        </span>
        <input
          type="range"
          aria-label="Part size"
          min={0}
          max={PART_SIZE_STEPS.length - 1}
          value={partStep}
          aria-valuetext={formatBytes(PART_SIZE_STEPS[partStep]!)}
          onChange={(e) => {
            const i = Number(e.target.value);
            setPartStep(i);
            send({ partSizeBytes: PART_SIZE_STEPS[i]! });
          }}
        />
      </label>
      <label>
        <span>
          Max speed <output>{speedLabel(MAX_SPEED_STEPS[speedStep]!)}</output>
        </span>
        <input
          type="range"
          aria-label="Max speed"
          min={0}
          max={MAX_SPEED_STEPS.length - 1}
          value={speedStep}
          aria-valuetext={speedLabel(MAX_SPEED_STEPS[speedStep]!)}
          onChange={(e) => {
            const i = Number(e.target.value);
            setSpeedStep(i);
            send({ maxRate: MAX_SPEED_STEPS[i]! });
          }}
        />
      </label>
      <p className="hint">
        Memory for transfers: about {formatBytes(threads * BUFFER_BYTES_PER_THREAD)} ({threads} ×{' '}
        {formatBytes(BUFFER_BYTES_PER_THREAD)} of buffers). Parts stream from disk, so part size adds none.
      </p>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </section>
  );
}
