// One window's API socket: calls in, answers and events out, and never more of either held for it
// than a window that is slow, but reading, needs.
//
// A client that sent calls and read no answers grew the host without bound (667 MB to 2.2 GB in
// 20 s): every answer was kept until taken. Now the host reads a socket's calls only while fewer
// than MAX_CALLS_IN_FLIGHT are unanswered and less than PAUSE_UNSENT_BYTES it wrote waits to be
// taken; past either it stops reading the socket (TCP then holds the client's further calls in the
// client), and reads on once both are back under. A slow window's calls wait; none is dropped.
// Progress batches are skipped while the socket is behind (the next one supersedes them); past
// CLOSE_UNSENT_BYTES (events the window does not take) the socket is closed, and a window that
// comes back takes a fresh snapshot. Messages are counted as well as bytes: each unsent one costs
// the host a few hundred bytes beyond its own, and 32 sockets flooding 7-byte invalid messages, each
// answered in 100 bytes, grew it from 96 to 380 MB while staying under the byte bounds.

import type { RawData, WebSocket } from 'ws';
import { z } from 'zod';
import type { BargeService } from '../service/barge-service.ts';
import type { ApiEvent } from '../../src/contract/api.ts';

/** Calls one socket may have unanswered; more wait, unread, in the socket. */
export const MAX_CALLS_IN_FLIGHT = 16;
/** Bytes written to a socket and not yet taken by it, past which its calls are not read and progress is skipped. */
export const PAUSE_UNSENT_BYTES = 4 * 1024 * 1024;
/** Bytes not taken past which the socket is closed (the answers to MAX_CALLS_IN_FLIGHT calls fit below it). */
export const CLOSE_UNSENT_BYTES = 64 * 1024 * 1024;
/** Messages written to a socket and not yet taken, past which its calls are not read and progress is skipped. */
export const PAUSE_UNSENT_MESSAGES = 256;
/** Messages not taken past which the socket is closed (events a window that is gone does not take). */
export const CLOSE_UNSENT_MESSAGES = 16_384;

const callSchema = z.object({ id: z.number().int(), method: z.string().max(100), params: z.unknown() });
const INVALID_CALL = JSON.stringify({
  id: null,
  result: { ok: false, error: { code: 'InvalidRequest', message: 'Messages are {id, method, params} JSON.' } },
});

export function serveApi(ws: WebSocket, service: BargeService): void {
  let inFlight = 0;
  let unsentBytes = 0;
  let unsentMessages = 0;
  // Calls read while the socket was being paused (ws hands over what it had already read).
  const waitingCalls: RawData[] = [];
  const open = () => ws.readyState === ws.OPEN;
  const sendingBehind = () => unsentBytes >= PAUSE_UNSENT_BYTES || unsentMessages >= PAUSE_UNSENT_MESSAGES;
  const behind = () => inFlight >= MAX_CALLS_IN_FLIGHT || sendingBehind();

  function send(text: string): void {
    if (!open()) return;
    const bytes = Buffer.byteLength(text);
    unsentBytes += bytes;
    unsentMessages += 1;
    ws.send(text, () => {
      unsentBytes -= bytes;
      unsentMessages -= 1;
      readOn();
    });
    if (unsentBytes > CLOSE_UNSENT_BYTES || unsentMessages > CLOSE_UNSENT_MESSAGES) ws.terminate();
  }

  function take(data: RawData): void {
    let call;
    try {
      call = callSchema.parse(JSON.parse(String(data)));
    } catch {
      send(INVALID_CALL);
      return;
    }
    inFlight += 1;
    void service.dispatch(call.method, call.params).then((result) => {
      inFlight -= 1;
      send(JSON.stringify({ id: call.id, result }));
      readOn();
    });
  }

  /** Takes the calls that waited, and reads the socket again, as far as the limits allow. */
  function readOn(): void {
    while (!behind() && waitingCalls.length > 0) take(waitingCalls.shift()!);
    if (behind()) ws.pause();
    else if (ws.isPaused) ws.resume();
  }

  const unsubscribe = service.subscribe((event: ApiEvent) => {
    // A client that does not keep up misses progress batches (the next one supersedes them), never a removal.
    if (sendingBehind() && (event.type === 'jobs' || event.type === 'stats')) return;
    send(JSON.stringify({ event }));
  });
  ws.on('close', () => {
    unsubscribe();
    waitingCalls.length = 0;
  });
  ws.on('message', (data) => {
    if (behind() || waitingCalls.length > 0) {
      waitingCalls.push(data);
      ws.pause();
      return;
    }
    take(data);
    if (behind()) ws.pause();
  });
}
