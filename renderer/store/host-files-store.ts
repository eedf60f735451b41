// Files between the window and the machine that runs Barge, where they are two machines (a browser
// on the web host): that machine's folders, for the folder picker (fs.listFolders, and fs.makeFolder for its New
// folder); and objects
// saved on the browser's own computer, through the browser's own downloads (objects.saveLink).

import { create } from 'zustand';
import type { FolderListing } from '../../src/contract/models.ts';
import { saveUrl } from '../save-file.ts';
import { request } from './api.ts';

/**
 * Objects saved through the browser at once, at most: each is a download of its own (a browser asks
 * once whether a page may start several). More, or folders, go to the host with Download.
 */
export const MAX_SAVED_TO_COMPUTER = 50;

interface HostFilesState {
  /**
   * The subfolders of a folder on the host (its whole path; none: where downloads go by default). Rejects with the
   * reason.
   */
  listFolders(folder?: string): Promise<FolderListing>;
  /** A new folder `name` in `parent` on the host, then its listing (empty). Rejects with the reason, in words. */
  makeFolder(parent: string, name: string): Promise<FolderListing>;
  /**
   * Save objects on this computer, each as a download of the browser's own, one after the other;
   * resolves with the keys whose bytes can be checked for their size only (none with
   * `requireVerified`, which refuses them). Rejects with the first object's reason that could not
   * be (the ones before it are on their way).
   */
  saveToComputer(
    connectionId: string,
    bucket: string,
    keys: readonly string[],
    requireVerified?: boolean,
  ): Promise<string[]>;
}

export const useHostFiles = create<HostFilesState>(() => ({
  listFolders(folder) {
    return request('fs.listFolders', folder === undefined ? {} : { path: folder });
  },
  makeFolder(parent, name) {
    return request('fs.makeFolder', { parent, name });
  },
  async saveToComputer(connectionId, bucket, keys, requireVerified = false) {
    if (keys.length > MAX_SAVED_TO_COMPUTER)
      throw new Error(
        `At most ${MAX_SAVED_TO_COMPUTER} objects are saved through the browser at once: download more into a ` +
          `folder on the host.`,
      );
    const sizeOnly: string[] = [];
    for (const key of keys) {
      const link = await request('objects.saveLink', { connectionId, bucket, key, requireVerified });
      if (link.check === 'size-only') sizeOnly.push(key);
      saveUrl(link.url, link.fileName);
    }
    return sizeOnly;
  },
}));
