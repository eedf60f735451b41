import { expect, it } from 'vitest';
import { historyRetention } from '../../../../main/service/data-dir.ts';

it('reads the history retention from BARGE_HISTORY_DAYS and BARGE_HISTORY_JOBS, and says a value it cannot read', () => {
  const said: string[] = [];
  const warn = (message: string) => said.push(message);
  expect(historyRetention({}, warn)).toEqual({ days: 90, jobs: 10_000 });
  expect(historyRetention({ BARGE_HISTORY_DAYS: '7', BARGE_HISTORY_JOBS: '0' }, warn)).toEqual({ days: 7, jobs: 0 });
  expect(historyRetention({ BARGE_HISTORY_DAYS: 'a week' }, warn)).toEqual({ days: 90, jobs: 10_000 });
  expect(said).toEqual(['BARGE_HISTORY_DAYS takes a whole number, not "a week": the history keeps 90 then.']);
});
