// The Threads, Part size and Max speed sliders. They change the running engine: Threads and Max
// speed at once, for every job together; Part size for each file that starts after the change.
//
// Threads and Part size are on Auto until moved: the slider then shows what the engine chose (the
// engine's stats, each second) and a line says why. Moving a slider pins it; its Auto button (a
// toggle) gives it back to the engine.

import { useEffect, useRef, useState } from 'react';
import { MIB } from '../../src/byte-units.ts';
import type { Auto } from '../../src/settings.ts';
import {
  AUTO,
  FIXED_DEFAULT_PART_SIZE_BYTES,
  FIXED_DEFAULT_THREADS,
  MAX_THREADS,
  MIN_THREADS,
} from '../../src/settings.ts';
import { formatBytes } from '../format.ts';
import { nearestStep, PART_SIZE_STEPS } from '../part-size-steps.ts';
import { MAX_SPEED_STEPS, nearestSpeedStep, speedLabel } from '../max-speed-steps.ts';
import { useSettings } from '../store/settings-store.ts';
import { useJobs } from '../store/jobs-store.ts';

/**
 * Per thread, rounded up: an upload's two 256 KiB read buffers, a download's 1 MiB write buffer and 64 KiB read buffer.
 */
const BUFFER_BYTES_PER_THREAD = 1.25 * MIB;
const SEND_DELAY_MS = 150;

export function TransferSettings() {
  const { settings, update, error } = useSettings();
  const auto = useJobs((state) => state.stats?.auto);
  const threadsAuto = settings?.threads === AUTO;
  const partAuto = settings?.partSizeBytes === AUTO;
  // Under Auto (or before the settings are known), what the engine chose; pinned, the setting.
  const threadsInUse = inUse(settings?.threads, auto?.threads, FIXED_DEFAULT_THREADS);
  const partInUse = inUse(settings?.partSizeBytes, auto?.partSizeBytes, FIXED_DEFAULT_PART_SIZE_BYTES);
  const [threads, setThreads] = useState(threadsInUse);
  const [partStep, setPartStep] = useState(nearestStep(partInUse));
  const [speedStep, setSpeedStep] = useState(nearestSpeedStep(settings?.maxRate ?? 0));
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const pending = useRef<Parameters<typeof update>[0]>({});
  useEffect(() => {
    // A slider being moved is not moved back by the engine's next word.
    if (pending.current.threads === undefined) setThreads(threadsInUse);
    if (pending.current.partSizeBytes === undefined) setPartStep(nearestStep(partInUse));
  }, [threadsInUse, partInUse]);
  useEffect(() => {
    if (settings) setSpeedStep(nearestSpeedStep(settings.maxRate));
  }, [settings?.maxRate]);
  const reasons = [threadsAuto ? auto?.reason : undefined, partAuto ? auto?.partSizeReason : undefined].filter(
    (reason): reason is string => reason !== undefined,
  );

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
      <div className="setting">
        <span>
          Threads <output>{threads}</output>
          <AutoButton knob="Threads" on={threadsAuto} onChange={(on) => send({ threads: on ? AUTO : threads })} />
        </span>
        <input
          type="range"
          aria-label="Threads"
          min={MIN_THREADS}
          max={MAX_THREADS}
          value={threads}
          aria-valuetext={threadsAuto ? `${threads}, chosen by Auto` : String(threads)}
          onChange={(e) => {
            const v = Number(e.target.value);
            setThreads(v);
            send({ threads: v });
          }}
        />
      </div>
      <div className="setting">
        <span>
          Part size <output>{formatBytes(PART_SIZE_STEPS[partStep]!)}</output>
          <AutoButton
            knob="Part size"
            on={partAuto}
            onChange={(on) => send({ partSizeBytes: on ? AUTO : PART_SIZE_STEPS[partStep]! })}
          />
        </span>
        <input
          type="range"
          aria-label="Part size"
          min={0}
          max={PART_SIZE_STEPS.length - 1}
          value={partStep}
          aria-valuetext={`${formatBytes(PART_SIZE_STEPS[partStep]!)}${partAuto ? ', chosen by Auto' : ''}`}
          onChange={(e) => {
            const i = Number(e.target.value);
            setPartStep(i);
            send({ partSizeBytes: PART_SIZE_STEPS[i]! });
          }}
        />
      </div>
      {/* Always there, empty while nothing is on Auto: a live region is heard only once it exists. A status
          role, because a plain paragraph may not carry a name (axe: aria-prohibited-attr). */}
      <p className="hint auto-reason" role="status" aria-label="Why Auto chose these">
        {reasons.join('. ')}
      </p>
      <label className="setting">
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

/** A knob's value in use: the number pinned, else the engine's choice, else where Auto starts. */
function inUse(setting: number | Auto | undefined, chosen: number | undefined, start: number): number {
  return typeof setting === 'number' ? setting : (chosen ?? start);
}

/** A knob's Auto: pressed while the engine sets it; pressing it again pins the value shown. */
function AutoButton(props: { knob: string; on: boolean; onChange: (on: boolean) => void }) {
  return (
    <button
      type="button"
      className="auto-toggle"
      aria-pressed={props.on}
      aria-label={`Auto ${props.knob}`}
      title={props.on ? `${props.knob} is set by Auto; press to pin it here` : `Let Auto set ${props.knob}`}
      onClick={() => props.onChange(!props.on)}
    >
      Auto
    </button>
  );
}
