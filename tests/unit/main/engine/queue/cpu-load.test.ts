import { expect, it } from 'vitest';
import { CpuLoad } from '../../../../../main/engine/queue/cpu-load.ts';
import type { CpuSample } from '../../../../../main/engine/queue/cpu-load.ts';

/** A clock, an event loop and a process whose busy time the test sets, on `cores` cores. */
function machine(cores: number) {
  let at = 0;
  let active = 0;
  let cpuMicros = 0;
  const sample = (): CpuSample => ({
    at,
    loop: { active, idle: at - active, utilization: 0 },
    cpuMicros,
    cores,
  });
  return {
    load: new CpuLoad(sample),
    run: (ms: number, loopShare: number, processCores = loopShare) => {
      at += ms;
      active += ms * loopShare;
      cpuMicros += ms * processCores * 1000;
    },
  };
}

it('says nothing until half a second is seen since it was made, then the busy shares of the window', () => {
  const { load, run } = machine(2);
  run(200, 1);
  expect(load.shares(5)).toBeUndefined();
  run(800, 0.5, 1.5);
  const shares = load.shares(5)!;
  expect(shares.eventLoop).toBeCloseTo(0.6);
  expect(shares.process).toBeCloseTo((200 * 1 + 800 * 1.5) / 1000 / 2);
});

it('measures the last window only, not what came long before it', () => {
  const { load, run } = machine(1);
  for (let second = 0; second < 10; second++) {
    run(1000, 0.1);
    load.shares(5);
  }
  for (let second = 0; second < 5; second++) {
    run(1000, 1);
    load.shares(5);
  }
  run(1000, 1);
  expect(load.shares(5)!.eventLoop).toBeGreaterThan(0.95);
});

it('sees a full core the loop alone does not: its threads reading files beside it', () => {
  const { load, run } = machine(1);
  run(2000, 0.6, 1);
  expect(load.shares(5)).toEqual({ eventLoop: 0.6, process: 1 });
});
