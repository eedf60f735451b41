import { expect, it } from 'vitest';
import { AttemptBytes } from '../../../../../main/engine/jobs/attempt-bytes.ts';

it('a failed attempt takes back only its own bytes; a failed object takes back all of its own, once', async () => {
  let job = 0;
  const object = new AttemptBytes((bytes) => {
    job += bytes;
  });
  const first = object.attempt();
  await first.keepIf(async () => first.add(5));
  const resent = object.attempt();
  await expect(
    resent.keepIf(async () => {
      resent.add(3);
      throw new Error('reset');
    }),
  ).rejects.toThrow('reset');
  expect(job).toBe(5);
  const again = object.attempt();
  await again.keepIf(async () => again.add(3));
  expect(job).toBe(8);
  object.drop();
  expect(job).toBe(0);
  object.drop();
  expect(job).toBe(0);
});
