// What the window asks of the disk of the machine that runs Barge, where a browser has no native
// dialog for it: that machine's folders, for the folder picker (fs.listFolders).

import { create } from 'zustand';
import type { FolderListing } from '../../src/contract/models.ts';
import { request } from './api.ts';

interface HostFilesState {
  /** The subfolders of a folder on the host (its whole path; none: where downloads go by default). Rejects with the reason. */
  listFolders(folder?: string): Promise<FolderListing>;
}

export const useHostFiles = create<HostFilesState>(() => ({
  listFolders(folder) {
    return request('fs.listFolders', folder === undefined ? {} : { path: folder });
  },
}));
