import type { EventLoopUtilization } from 'node:perf_hooks';
import { expect, it } from 'vitest';
import { EventLoopLoad } from '../../../../../main/engine/queue/event-loop-load.ts';

/** A clock and an event loop whose busy time the test sets. */
function loop() {
  let now = 0;
  let active = 0;
  const snapshot = (): EventLoopUtilization => ({ idle: now - active, active, utilization: active / (now || 1) });
  const measure = (current?: EventLoopUtilization, before?: EventLoopUtilization) => {
    if (!current) return snapshot();
    const busy = current.active - (before?.active ?? 0);
    const idle = current.idle - (before?.idle ?? 0);
    return { active: busy, idle, utilization: busy / (busy + idle) };
  };
  return {
    load: new EventLoopLoad(() => now, measure),
    run: (ms: number, busyShare: number) => {
      now += ms;
      active += ms * busyShare;
    },
  };
}

it('says nothing until half a second is seen, then the busy share of the window', () => {
  const { load, run } = loop();
  expect(load.utilisation(5)).toBeUndefined();
  run(200, 1);
  expect(load.utilisation(5)).toBeUndefined();
  run(800, 0.5);
  expect(load.utilisation(5)).toBeCloseTo(0.6);
});

it('measures the last window only, not what came long before it', () => {
  const { load, run } = loop();
  load.utilisation(5);
  for (let second = 0; second < 10; second++) {
    run(1000, 0.1);
    load.utilisation(5);
  }
  for (let second = 0; second < 5; second++) {
    run(1000, 1);
    load.utilisation(5);
  }
  run(1000, 1);
  expect(load.utilisation(5)).toBeGreaterThan(0.95);
});
