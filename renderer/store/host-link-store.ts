// The window's link to its host, as the API reports it (a browser's: see renderer/api/host-link.ts).

import { create } from 'zustand';
import type { HostLink } from '../../src/contract/api.ts';

interface HostLinkState {
  readonly link: HostLink;
  changed(link: HostLink): void;
}

export const useHostLink = create<HostLinkState>((set) => ({
  link: { state: 'connected' },
  changed(link) {
    set({ link });
  },
}));
