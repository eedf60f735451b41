// One window's API socket holds no more for a client than a slow window needs: counted in messages
// as well as bytes, since each unsent message costs the host far more than its own few bytes.

import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { CLOSE_UNSENT_MESSAGES, PAUSE_UNSENT_MESSAGES, serveApi } from '../../../../main/web-host/api-socket.ts';
import type { BargeService } from '../../../../main/service/barge-service.ts';
import type { ApiEvent } from '../../../../src/contract/api.ts';

/** What serveApi uses of a socket; what it sends stays unsent (not taken) until `take` is called. */
class FakeSocket extends EventEmitter {
  readonly OPEN = 1;
  readyState = 1;
  isPaused = false;
  terminated = false;
  readonly unsent: { text: string; sent: () => void }[] = [];

  send(text: string, sent: () => void): void {
    this.unsent.push({ text, sent });
  }

  /** The client takes `count` of what was sent. */
  take(count: number): void {
    for (const { sent } of this.unsent.splice(0, count)) sent();
  }

  pause(): void {
    this.isPaused = true;
  }

  resume(): void {
    this.isPaused = false;
  }

  terminate(): void {
    this.terminated = true;
    this.readyState = 3;
  }
}

function served(): { socket: FakeSocket; publish: (event: ApiEvent) => void } {
  const socket = new FakeSocket();
  let listener: (event: ApiEvent) => void = () => undefined;
  const service = {
    dispatch: async () => ({ ok: true, value: null }),
    subscribe(next: (event: ApiEvent) => void) {
      listener = next;
      return () => undefined;
    },
  } as unknown as BargeService;
  serveApi(socket as unknown as WebSocket, service);
  return { socket, publish: (event) => listener(event) };
}

describe('an API socket that takes nothing', () => {
  it(`is not read once ${PAUSE_UNSENT_MESSAGES} answers wait (7-byte invalid messages, each answered, grew the host by 280 MB), and is read again as they are taken`, () => {
    const { socket } = served();
    for (let i = 0; i < 1000; i++) socket.emit('message', Buffer.from('invalid'));
    expect(socket.unsent).toHaveLength(PAUSE_UNSENT_MESSAGES);
    expect(socket.isPaused).toBe(true);
    socket.take(PAUSE_UNSENT_MESSAGES);
    expect(socket.unsent).toHaveLength(PAUSE_UNSENT_MESSAGES);
    expect(socket.unsent[0]!.text).toContain('InvalidRequest');
  });

  it(`skips progress while behind, and is closed past ${CLOSE_UNSENT_MESSAGES} events not taken`, () => {
    const { socket, publish } = served();
    for (let i = 0; i < PAUSE_UNSENT_MESSAGES; i++) publish({ type: 'jobs-removed', ids: [`job-${i}`] });
    publish({ type: 'jobs', jobs: [] });
    expect(socket.unsent).toHaveLength(PAUSE_UNSENT_MESSAGES);
    for (let i = PAUSE_UNSENT_MESSAGES; i <= CLOSE_UNSENT_MESSAGES; i++)
      publish({ type: 'jobs-removed', ids: [`job-${i}`] });
    expect(socket.terminated).toBe(true);
  });
});
