// Bytes to a host as a stranger sends them: raw TCP, hand-built upgrade requests and WebSocket frames.

import { randomBytes } from 'node:crypto';
import net from 'node:net';
import WebSocket from 'ws';
import { API_PROTOCOL, apiProtocols } from '../../src/contract/api.ts';

export interface RawConnection {
  readonly socket: net.Socket;
  /** What the host has sent so far (latin1: every byte kept). */
  received(): string;
  /** Resolves once the connection has closed, however it closed. */
  readonly closed: Promise<void>;
}

export function openRaw(port: number): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
    });
    // A host that closes while bytes are still on their way resets the connection: not an error here.
    socket.on('error', () => undefined);
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.once('connect', () => resolve({ socket, received: () => received, closed }));
    closed.then(
      () => reject(new Error('closed before connecting')),
      () => undefined,
    );
  });
}

/** A WebSocket upgrade request; `protocols` as a client offers them (apiProtocols(token) to present a token). */
export function upgradeRequest(
  port: number,
  options: { target?: string; protocols?: readonly string[]; headers?: Record<string, string> } = {},
): string {
  const headers: Record<string, string> = {
    host: `127.0.0.1:${port}`,
    origin: `http://127.0.0.1:${port}`,
    upgrade: 'websocket',
    connection: 'Upgrade',
    'sec-websocket-key': randomBytes(16).toString('base64'),
    'sec-websocket-version': '13',
    ...(options.protocols ? { 'sec-websocket-protocol': options.protocols.join(', ') } : {}),
    ...options.headers,
  };
  return `GET ${options.target ?? '/api'} HTTP/1.1\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;
}

export interface FrameShape {
  readonly fin?: boolean;
  /** The three reserved bits, 0-7. */
  readonly rsv?: number;
  readonly opcode: number;
  readonly payload?: Buffer;
  /** Client frames must be masked; false sends one unmasked. */
  readonly masked?: boolean;
  /** The length the header declares, if not the payload's (a frame longer than what follows). */
  readonly declaredLength?: bigint;
}

/** One WebSocket frame's bytes, as a client sends it (masked unless told). */
export function frame({
  fin = true,
  rsv = 0,
  opcode,
  payload = Buffer.alloc(0),
  masked = true,
  declaredLength,
}: FrameShape): Buffer {
  const length = declaredLength ?? BigInt(payload.length);
  const head = [((fin ? 1 : 0) << 7) | ((rsv & 7) << 4) | (opcode & 15)];
  const mask = masked ? 0x80 : 0;
  let extended = Buffer.alloc(0);
  if (length < 126n) head.push(mask | Number(length));
  else if (length < 65536n) {
    head.push(mask | 126);
    extended = Buffer.alloc(2);
    extended.writeUInt16BE(Number(length));
  } else {
    head.push(mask | 127);
    extended = Buffer.alloc(8);
    extended.writeBigUInt64BE(length);
  }
  const key = masked ? randomBytes(4) : Buffer.alloc(0);
  const body = Buffer.from(payload);
  if (masked) for (let i = 0; i < body.length; i++) body[i]! ^= key[i % 4]!;
  return Buffer.concat([Buffer.from(head), extended, key, body]);
}

/** The API's socket, opened as the window opens it (the token among its protocols, from the host's origin). */
export function apiSocket(port: number, token: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api`, apiProtocols(token), { origin: `http://127.0.0.1:${port}` });
    ws.once('open', () =>
      ws.protocol === API_PROTOCOL ? resolve(ws) : reject(new Error(`answered with the protocol "${ws.protocol}"`)),
    );
    ws.once('error', reject);
  });
}

/** One call's answer over an open API socket. */
export function apiCall(
  ws: WebSocket,
  method: string,
  params: unknown,
): Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string } }> {
  const id = Math.floor(Math.random() * 1e9);
  return new Promise((resolve, reject) => {
    const onClose = (code: number) => reject(new Error(`the socket closed (${code}) before the answer`));
    const onMessage = (data: WebSocket.RawData) => {
      const message = JSON.parse(String(data)) as { id?: number; result?: never };
      if (message.id !== id) return;
      ws.off('message', onMessage);
      ws.off('close', onClose);
      resolve(message.result!);
    };
    ws.on('message', onMessage);
    ws.once('close', onClose);
    ws.send(JSON.stringify({ id, method, params }));
  });
}
