// Where secret access keys live, apart from everything else.
//
// The window never sees a secret: the registry hands out summaries with `hasSecret`, and secrets go
// from here straight into the S3 client. The Electron app keeps them encrypted with the operating
// system's keychain (safeStorage); the web host and the tests keep them in a file only the user can
// read, next to the other settings.

import { readFile } from 'node:fs/promises';
import { writeJsonFileAtomically } from './atomic-json-file.ts';

export interface SecretStore {
  get(id: string): Promise<string | undefined>;
  set(id: string, secret: string): Promise<void>;
  delete(id: string): Promise<void>;
}

/** Secrets in a JSON file of mode 0600; `encode`/`decode` let a host encrypt them. */
export class FileSecretStore implements SecretStore {
  private cache: Record<string, string> | undefined;
  private readonly file: string;
  private readonly encode: (plain: string) => Promise<string>;
  private readonly decode: (stored: string) => Promise<string>;

  constructor(
    file: string,
    codec?: { encode(plain: string): Promise<string>; decode(stored: string): Promise<string> },
  ) {
    this.file = file;
    this.encode = codec?.encode ?? (async (plain) => plain);
    this.decode = codec?.decode ?? (async (stored) => stored);
  }

  async get(id: string): Promise<string | undefined> {
    const stored = (await this.load())[id];
    return stored === undefined ? undefined : this.decode(stored);
  }

  async set(id: string, secret: string): Promise<void> {
    const all = await this.load();
    all[id] = await this.encode(secret);
    await this.save(all);
  }

  async delete(id: string): Promise<void> {
    const all = await this.load();
    if (!(id in all)) return;
    delete all[id];
    await this.save(all);
  }

  private async load(): Promise<Record<string, string>> {
    if (this.cache) return this.cache;
    try {
      this.cache = JSON.parse(await readFile(this.file, 'utf8')) as Record<string, string>;
    } catch {
      this.cache = {};
    }
    return this.cache;
  }

  private async save(all: Record<string, string>): Promise<void> {
    await writeJsonFileAtomically(this.file, all);
    this.cache = all;
  }
}
