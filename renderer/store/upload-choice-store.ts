// What the window's uploads do with an object already there: ask (the default), or the answer the
// user chose up front. Remembered on this computer (localStorage), as a preference of how this user
// works; the command line keeps its own default (replace, as cp and aws s3 cp do).

import { create } from 'zustand';
import { ifExistsSchema } from '../../src/if-exists.ts';
import type { IfExists } from '../../src/if-exists.ts';

const STORAGE_KEY = 'barge.uploads.ifExists';

interface UploadChoiceState {
  readonly ifExists: IfExists;
  setIfExists(ifExists: IfExists): void;
}

/** The remembered answer, or "ask" where none is (or one from an older build that is no answer now). */
export function readUploadChoice(stored: string | null): IfExists {
  const parsed = ifExistsSchema.safeParse(stored);
  return parsed.success ? parsed.data : 'ask';
}

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined; // Storage refused: the choice lasts the session.
  }
}

export const useUploadChoice = create<UploadChoiceState>((set) => ({
  ifExists: readUploadChoice(storage()?.getItem(STORAGE_KEY) ?? null),
  setIfExists(ifExists) {
    set({ ifExists });
    try {
      storage()?.setItem(STORAGE_KEY, ifExists);
    } catch {
      // Full or refused: the choice still applies now.
    }
  },
}));
