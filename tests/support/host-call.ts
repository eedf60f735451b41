// One call to the e2e host over its API, as a window makes it: for a test to change what the window
// cannot (a setting with no control of its own), and every open window hears of it.

import WebSocket from 'ws';
import { inject } from 'vitest';
import { apiProtocols } from '../../src/contract/api.ts';
import type { MethodName, MethodParams, MethodResults } from '../../src/contract/api.ts';

export async function hostCall<M extends MethodName>(method: M, params: MethodParams<M>): Promise<MethodResults[M]> {
  const { origin, token } = inject('app');
  const ws = new WebSocket(`${origin.replace('http', 'ws')}/api`, apiProtocols(token), { origin });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  type Answer = { ok: true; value: MethodResults[M] } | { ok: false; error: { message: string } };
  const answer = new Promise<Answer>((resolve) => {
    ws.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString()) as { id?: number; result: Answer };
      if (message.id === 1) resolve(message.result);
    });
  });
  ws.send(JSON.stringify({ id: 1, method, params }));
  const result = await answer;
  ws.close();
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}
