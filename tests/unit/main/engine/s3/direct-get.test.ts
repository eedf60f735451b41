// The GET client that writes bodies straight to a sink (direct-get.ts), against local HTTP servers
// that answer as stores do, and as broken ones do: framing, keep-alive, stale sockets, stalls.

import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { ChunkedDecoder, DirectGetPool, parseHead } from '../../../../../main/engine/s3/direct-get.ts';
import type { BodySink, DirectRequest, ResponseHead } from '../../../../../main/engine/s3/direct-get.ts';

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

async function listen(server: http.Server | net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => server.close());
  return (server.address() as net.AddressInfo).port;
}

function pool(): DirectGetPool {
  const created = new DirectGetPool();
  closers.push(() => created.close());
  return created;
}

function request(port: number, overrides: Partial<DirectRequest> = {}): DirectRequest {
  return {
    secure: false,
    hostname: '127.0.0.1',
    port,
    path: '/bucket/key',
    headers: { host: `127.0.0.1:${port}` },
    stallMs: 5_000,
    ...overrides,
  };
}

/** A sink that keeps what it is given, and the size of each write. */
function collector(): BodySink & { bytes: () => Buffer; writes: number[]; head?: ResponseHead } {
  const parts: Buffer[] = [];
  const sink = {
    writes: [] as number[],
    head: undefined as ResponseHead | undefined,
    accept(head: ResponseHead) {
      sink.head = head;
    },
    async write(chunk: Buffer) {
      // The buffer is reused after the write: what is kept is a copy.
      parts.push(Buffer.from(chunk));
      sink.writes.push(chunk.length);
      await new Promise((resolve) => setImmediate(resolve));
    },
    bytes: () => Buffer.concat(parts),
  };
  return sink;
}

describe('parseHead', () => {
  it('reads the status and headers, lower-cased, repeated ones joined as Node joins them', () => {
    const head = parseHead(
      'HTTP/1.1 206 Partial Content\r\nContent-Length: 10\r\nX-Amz-Meta-A: 1\r\nx-amz-meta-a: 2\r\nETag: "abc"',
    );
    expect(head).toEqual({ status: 206, headers: { 'content-length': '10', 'x-amz-meta-a': '1, 2', etag: '"abc"' } });
  });

  it('refuses an answer that is not HTTP/1.x', () => {
    expect(() => parseHead('SSH-2.0-OpenSSH_9.2')).toThrow(/not HTTP\/1.1/);
  });
});

describe('ChunkedDecoder', () => {
  it('decodes chunks split anywhere across reads, extensions and trailers included', () => {
    const data = randomBytes(5000);
    const encoded = Buffer.concat([
      Buffer.from('7d0;ext=1\r\n'),
      data.subarray(0, 2000),
      Buffer.from('\r\n'),
      Buffer.from('BB8\r\n'),
      data.subarray(2000),
      Buffer.from('\r\n'),
      Buffer.from('0\r\nx-amz-checksum-crc32c: AAAAAA==\r\n\r\n'),
    ]);
    for (const step of [1, 3, 7, 1000, encoded.length]) {
      const decoder = new ChunkedDecoder();
      const out: Buffer[] = [];
      for (let at = 0; at < encoded.length; at += step) {
        const piece = encoded.subarray(at, at + step);
        expect(decoder.feed(piece, (bytes) => out.push(Buffer.from(bytes)))).toBe(piece.length);
      }
      expect(decoder.done).toBe(true);
      expect(Buffer.concat(out).equals(data)).toBe(true);
    }
  });

  it('stops at the end of the body and says how much of the read it used', () => {
    const decoder = new ChunkedDecoder();
    const read = Buffer.from('3\r\nabc\r\n0\r\n\r\nHTTP/1.1 200');
    expect(decoder.feed(read, () => {})).toBe(read.indexOf('HTTP'));
    expect(decoder.done).toBe(true);
  });

  it('refuses a chunk longer than it said, and a size that is not one', () => {
    expect(() => new ChunkedDecoder().feed(Buffer.from('3\r\nabcd\r\n'), () => {})).toThrow(/longer than it said/);
    expect(() => new ChunkedDecoder().feed(Buffer.from('zz\r\n'), () => {})).toThrow(/bad chunk size/);
  });
});

describe('DirectGetPool', () => {
  it('delivers a Content-Length body whole, in write buffers of at most 1 MiB, over one kept-alive connection', async () => {
    const body = randomBytes(5 * 1024 * 1024 + 17);
    let connections = 0;
    const server = http.createServer((req, res) => {
      res.setHeader('content-length', body.length);
      res.setHeader('x-seen-range', String(req.headers.range));
      res.end(body);
    });
    server.on('connection', () => {
      connections += 1;
    });
    const port = await listen(server);
    const gets = pool();
    for (let round = 0; round < 3; round++) {
      const sink = collector();
      const answer = await gets.get(
        request(port, { headers: { host: `127.0.0.1:${port}`, range: 'bytes=0-9' } }),
        sink,
      );
      expect(answer.head.status).toBe(200);
      expect(answer.errorText).toBeUndefined();
      expect(sink.head?.headers['x-seen-range']).toBe('bytes=0-9');
      expect(sink.bytes().equals(body)).toBe(true);
      expect(Math.max(...sink.writes)).toBeLessThanOrEqual(1024 * 1024);
    }
    expect(connections).toBe(1);
  });

  it('decodes a chunked body', async () => {
    const body = randomBytes(3 * 1024 * 1024);
    const port = await listen(
      http.createServer((_req, res) => {
        // No Content-Length: Node sends it chunked, a piece per write.
        for (let at = 0; at < body.length; at += 100_000) res.write(body.subarray(at, at + 100_000));
        res.end();
      }),
    );
    const sink = collector();
    await pool().get(request(port), sink);
    expect(sink.bytes().equals(body)).toBe(true);
  });

  it("keeps an error answer's body as text and sends nothing to the sink", async () => {
    const xml = '<?xml version="1.0"?><Error><Code>AccessDenied</Code><Message>Access Denied.</Message></Error>';
    const port = await listen(
      http.createServer((_req, res) => {
        res.statusCode = 403;
        res.end(xml);
      }),
    );
    const sink = collector();
    const answer = await pool().get(request(port), sink);
    expect(answer.head.status).toBe(403);
    expect(answer.errorText).toBe(xml);
    expect(sink.writes).toEqual([]);
    expect(sink.head).toBeUndefined();
  });

  it('fails a body cut short with a retryable code, after writing every byte that came', async () => {
    const sent = randomBytes(300_000);
    const port = await listen(
      net.createServer((socket) => {
        socket.once('data', () => {
          socket.write(`HTTP/1.1 206 Partial Content\r\nContent-Length: 1000000\r\n\r\n`);
          socket.end(sent);
        });
      }),
    );
    const sink = collector();
    await expect(pool().get(request(port), sink)).rejects.toMatchObject({
      code: 'ECONNRESET',
      message: expect.stringContaining('before the whole body'),
    });
    expect(sink.bytes().equals(sent)).toBe(true);
  });

  it('refuses more bytes than Content-Length says', async () => {
    const port = await listen(
      net.createServer((socket) => {
        socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabcdef'));
      }),
    );
    await expect(pool().get(request(port), collector())).rejects.toThrow(/more bytes than Content-Length/);
  });

  it('sends the request again on a new socket when the pooled one was closed by the server while idle', async () => {
    let connections = 0;
    // A keep-alive answer, then the connection closed a little later (a store's idle timeout).
    const port = await listen(
      net.createServer((socket) => {
        connections += 1;
        socket.once('data', () => {
          socket.write('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello');
          setTimeout(() => socket.end(), 50);
        });
      }),
    );
    const gets = pool();
    await gets.get(request(port), collector());
    await new Promise((resolve) => setTimeout(resolve, 300));
    const sink = collector();
    await gets.get(request(port), sink);
    expect(sink.bytes().toString()).toBe('hello');
    expect(connections).toBe(2);
  });

  it('fails a socket that goes quiet mid-body with TimeoutError', async () => {
    const port = await listen(
      net.createServer((socket) => {
        socket.once('data', () => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc'));
      }),
    );
    await expect(pool().get(request(port, { stallMs: 200 }), collector())).rejects.toMatchObject({
      name: 'TimeoutError',
      code: 'ETIMEDOUT',
    });
  });

  it('stops at once when the signal aborts', async () => {
    const port = await listen(
      net.createServer((socket) => {
        socket.once('data', () => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc'));
      }),
    );
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await expect(pool().get(request(port, { signal: controller.signal }), collector())).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it('refuses a header value that could end the header early (an ETag from a store, sent back in If-Match)', async () => {
    const port = await listen(http.createServer((_req, res) => res.end('x')));
    await expect(
      pool().get(request(port, { headers: { 'if-match': '"a"\r\nx-evil: 1' } }), collector()),
    ).rejects.toThrow(/a character a header cannot carry/);
    // Sent as latin1, U+010D U+010A would lose their high bytes and become CR LF.
    await expect(
      pool().get(request(port, { headers: { 'if-match': '"a"\u010d\u010ax-evil: 1' } }), collector()),
    ).rejects.toThrow(/a character a header cannot carry/);
  });

  it('closes an idle socket the server sends bytes on unasked, so they never pass for the next answer', async () => {
    let connections = 0;
    const port = await listen(
      net.createServer((socket) => {
        connections += 1;
        socket.on('data', () => {
          socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
          setTimeout(() => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nEVIL!'), 20);
        });
      }),
    );
    const gets = pool();
    await gets.get(request(port), collector());
    await new Promise((resolve) => setTimeout(resolve, 100));
    const sink = collector();
    await gets.get(request(port), sink);
    expect(sink.bytes().toString()).toBe('ok');
    expect(connections).toBe(2);
  });

  it('does not reuse a connection the server said it closes', async () => {
    let connections = 0;
    const server = http.createServer((_req, res) => {
      res.setHeader('connection', 'close');
      res.end('bye');
    });
    server.on('connection', () => {
      connections += 1;
    });
    const port = await listen(server);
    const gets = pool();
    for (let i = 0; i < 3; i++) await gets.get(request(port), collector());
    expect(connections).toBe(3);
  });

  it('reuses one socket for many requests without piling listeners on it', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    let connections = 0;
    const server = http.createServer((_req, res) => res.end('x'));
    server.on('connection', () => {
      connections += 1;
    });
    const port = await listen(server);
    const gets = pool();
    try {
      for (let i = 0; i < 25; i++) await gets.get(request(port), collector());
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(connections).toBe(1);
    expect(warnings.map((warning) => warning.name)).not.toContain('MaxListenersExceededWarning');
  });

  it('does not count a slow disk write as a stall', async () => {
    const body = randomBytes(3 * 1024 * 1024);
    const port = await listen(http.createServer((_req, res) => res.end(body)));
    let got = 0;
    const slowDisk: BodySink = {
      accept: () => {},
      write: async (chunk) => {
        got += chunk.length;
        await new Promise((resolve) => setTimeout(resolve, 400));
      },
    };
    await pool().get(request(port, { stallMs: 250 }), slowDisk);
    expect(got).toBe(body.length);
    // 400 ms a write: the socket's reads decide how many writes the body takes (4 here when idle, more
    // under load), so the test gets more than the default 5 s.
  }, 30_000);

  it('gives up on a server that never ends its answer: interim heads, or an error body without end', async () => {
    const interim = await listen(
      net.createServer((socket) => {
        socket.on('error', () => {});
        const timer = setInterval(() => socket.write('HTTP/1.1 100 Continue\r\n\r\n'), 5);
        socket.on('close', () => clearInterval(timer));
      }),
    );
    await expect(pool().get(request(interim), collector())).rejects.toThrow(/interim answers and no answer/);
    const endless = await listen(
      net.createServer((socket) => {
        socket.on('error', () => {});
        socket.write('HTTP/1.1 500 Internal Server Error\r\nTransfer-Encoding: chunked\r\n\r\n');
        const timer = setInterval(() => socket.write('400\r\n' + 'x'.repeat(1024) + '\r\n'), 1);
        socket.on('close', () => clearInterval(timer));
      }),
    );
    const answer = await pool().get(request(endless), collector());
    expect(answer.head.status).toBe(500);
    expect(answer.errorText!.length).toBeGreaterThanOrEqual(64 * 1024);
    expect(answer.errorText!.length).toBeLessThan(200 * 1024);
  });

  it('closes the connection when the sink refuses the answer', async () => {
    let closed = false;
    const port = await listen(
      http.createServer((_req, res) => {
        res.socket?.on('close', () => {
          closed = true;
        });
        res.end(randomBytes(100_000));
      }),
    );
    const refusing: BodySink = {
      accept: () => {
        throw new Error('not this');
      },
      write: async () => {},
    };
    await expect(pool().get(request(port), refusing)).rejects.toThrow('not this');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(closed).toBe(true);
  });

  it('speaks TLS, trusting what Node trusts (NODE_EXTRA_CA_CERTS included)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'barge-direct-tls-'));
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    const made = spawnSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost',
      ],
      { encoding: 'utf8' },
    );
    expect(made.status, made.stderr).toBe(0);
    const script = path.join(dir, 'tls-get.ts');
    const module = path.resolve('main/engine/s3/direct-get.ts');
    writeFileSync(
      script,
      `
      import https from 'node:https';
      import { readFileSync } from 'node:fs';
      import { DirectGetPool } from ${JSON.stringify(module)};
      const body = Buffer.alloc(2 * 1024 * 1024 + 5, 7);
      const server = https.createServer({ key: readFileSync(${JSON.stringify(key)}), cert: readFileSync(${JSON.stringify(cert)}) }, (_q, r) => r.end(body));
      server.listen(0, '127.0.0.1', async () => {
        const port = server.address().port;
        const pool = new DirectGetPool();
        let got = 0;
        let ok = true;
        await pool.get({ secure: true, hostname: 'localhost', port, path: '/', headers: { host: 'localhost:' + port }, stallMs: 5000 }, {
          accept() {}, async write(chunk) { got += chunk.length; ok &&= chunk.every((b) => b === 7); },
        });
        console.log(JSON.stringify({ got, ok }));
        pool.close(); server.close();
      });
    `,
    );
    const run = spawnSync(process.execPath, [script], {
      encoding: 'utf8',
      env: { ...process.env, NODE_EXTRA_CA_CERTS: cert },
    });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ got: 2 * 1024 * 1024 + 5, ok: true });
  });
});
