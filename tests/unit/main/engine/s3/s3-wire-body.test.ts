// A streamed upload body on the wire: a store that refuses it before reading it all must not keep
// the request (its socket, the body's waiting writes) alive after the refusal.

import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { mkdtemp, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { S3Wire } from '../../../../../main/engine/s3/s3-wire.ts';
import { fileRangeBody } from '../../../../../main/engine/disk/file-range-body.ts';

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

it('a refusal that comes before the body is all sent ends the request: the socket is freed and the body settles', async () => {
  // Reads nothing of the body, answers 400 at once and keeps the connection open, as a proxy may.
  const server = net.createServer((socket) => {
    socket.pause();
    socket.on('error', () => {});
    setTimeout(() => socket.write('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n'), 100);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => server.close());
  const port = (server.address() as net.AddressInfo).port;
  const httpAgent = new http.Agent({ keepAlive: true });
  closers.push(() => httpAgent.destroy());
  const wire = new S3Wire({
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    pathStyle: true,
    credentials: async () => ({ accessKeyId: 'a', secretAccessKey: 'b' }),
    httpAgent,
    httpsAgent: new https.Agent(),
    stallTimeoutMs: 30_000,
  });
  const dir = await mkdtemp(path.join(os.tmpdir(), 'barge-wire-'));
  const file = path.join(dir, 'big.bin');
  await writeFile(file, Buffer.alloc(20 * 1024 * 1024));
  const info = await stat(file);
  const body = await fileRangeBody(
    {
      path: file,
      key: 'big.bin',
      size: info.size,
      mtimeMs: info.mtimeMs,
      dev: info.dev,
      ino: info.ino,
      ctimeMs: info.ctimeMs,
    },
    0,
    info.size,
    () => {},
  );
  const piped = body.pipeTo;
  let bodySettled = false;
  body.pipeTo = (write) =>
    piped(write).finally(() => {
      bodySettled = true;
    });
  await expect(wire.putObject('bucket', 'big.bin', body, info.size, {})).rejects.toMatchObject({ name: 'BadRequest' });
  await expect.poll(() => Object.values(httpAgent.sockets).flat().length, { timeout: 2000 }).toBe(0);
  await expect.poll(() => bodySettled, { timeout: 2000 }).toBe(true);
});
