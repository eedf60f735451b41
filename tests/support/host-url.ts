// The URL (with its token) a web host prints once it listens: what a test opens in the browser.

import type { ChildProcess } from 'node:child_process';

/** Resolves with the host's URL; rejects, with what it printed, if it exits first. */
export function hostUrl(host: ChildProcess): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let out = '';
    host.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /(http:\/\/127\.0\.0\.1:\d+\/#token=\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    host.once('exit', (code) => reject(new Error(`the web host exited with ${code}: ${out}`)));
  });
}
