// Settings: the Threads and Part size sliders act on the running engine.

import { create } from 'zustand';
import type { Settings, SettingsPatch } from '../../src/settings.ts';
import { request } from './api.ts';

interface SettingsState {
  readonly settings: Settings | undefined;
  readonly error: string | undefined;
  load(): Promise<void>;
  update(patch: SettingsPatch): Promise<void>;
  received(settings: Settings): void;
}

export const useSettings = create<SettingsState>((set) => ({
  settings: undefined,
  error: undefined,
  async load() {
    set({ settings: await request('settings.get', {}) });
  },
  async update(patch) {
    set((state) => ({ settings: state.settings ? { ...state.settings, ...patch } : state.settings }));
    try {
      set({ settings: await request('settings.update', patch), error: undefined });
    } catch (error) {
      // Show what the engine really runs with, not the refused value.
      set({ error: (error as Error).message, settings: await request('settings.get', {}).catch(() => undefined) });
    }
  },
  received(settings) {
    set({ settings });
  },
}));
