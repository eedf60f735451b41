// The fault matrix (tests/faults/scenarios.ts) as a suite: each fault, during an upload and during a
// download, through toxiproxy or the HTTP fault proxy in front of a MinIO of the suite's own. Each
// test passes only if the job completes, every object is intact (compared by SHA-256 with its
// source), no multipart upload is left and no partial or differing file sits under a final name.
// `npm run faults` runs the same scenarios and prints them as a table.

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultLab } from '../faults/fault-lab.ts';
import type { FaultLab } from '../faults/fault-lab.ts';
import { createPayload } from '../faults/payload.ts';
import type { Payload } from '../faults/payload.ts';
import { runScenario } from '../faults/run-scenario.ts';
import { KILL_SCENARIO, runKillScenario } from '../faults/run-kill-scenario.ts';
import { DIRECTIONS, SCENARIOS } from '../faults/scenarios.ts';

let lab: FaultLab;
let payload: Payload;
let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'barge-fault-matrix-'));
  payload = await createPayload(scratch);
  lab = await startFaultLab();
});
afterAll(async () => {
  await lab?.close();
  await rm(scratch, { recursive: true, force: true });
});

for (const scenario of SCENARIOS) {
  describe(`${scenario.id}: ${scenario.description}`, () => {
    for (const direction of DIRECTIONS) {
      it(`${direction}: the job completes, every object intact, nothing partial left`, async () => {
        const outcome = await runScenario(lab, scenario, direction, payload);
        expect(outcome.problems).toEqual([]);
      });
    }
  });
}

describe(`${KILL_SCENARIO.id}: ${KILL_SCENARIO.description}`, () => {
  for (const direction of DIRECTIONS) {
    it(`${direction}: no recorded part or range moves twice, every object intact, nothing partial left`, async () => {
      const outcome = await runKillScenario(lab, direction, payload);
      expect(outcome.problems).toEqual([]);
    });
  }
});
