// The window's layout: pane widths, a collapsed bucket list, and whether Transfers is docked or a
// drawer. Remembered on this computer (localStorage: the window's own, in Electron and in a
// browser), because a layout is a preference of the screen, not of the data or the engine.

import { create } from 'zustand';

export const PANE_LIMITS = {
  buckets: { min: 140, max: 420, initial: 210 },
  transfers: { min: 320, max: 720, initial: 440 },
} as const;
export type Pane = keyof typeof PANE_LIMITS;

/** Below this window width Transfers is a drawer over the browser: names keep their room. */
export const DOCK_TRANSFERS_FROM = 1200;

interface Layout {
  readonly buckets: number;
  readonly transfers: number;
  readonly bucketsCollapsed: boolean;
  /** The user's choice on a wide window: Transfers beside the browser, or a drawer. */
  readonly transfersDocked: boolean;
}

interface LayoutState extends Layout {
  /** The drawer is open (a narrow window, or Transfers undocked). Not remembered: it opens when asked. */
  readonly drawerOpen: boolean;
  resize(pane: Pane, width: number): void;
  setBucketsCollapsed(collapsed: boolean): void;
  setTransfersDocked(docked: boolean): void;
  setDrawerOpen(open: boolean): void;
}

const STORAGE_KEY = 'barge.layout.v1';

export function clampWidth(pane: Pane, width: number): number {
  const { min, max, initial } = PANE_LIMITS[pane];
  return Number.isFinite(width) ? Math.round(Math.min(max, Math.max(min, width))) : initial;
}

/**
 * The remembered layout, each field checked: a stored value from an older build or a hand edit cannot break the window.
 */
export function readLayout(stored: string | null): Layout {
  let raw: Partial<Record<keyof Layout, unknown>> = {};
  try {
    const parsed: unknown = stored ? JSON.parse(stored) : {};
    if (parsed && typeof parsed === 'object') raw = parsed as typeof raw;
  } catch {
    // Unreadable: the defaults.
  }
  return {
    buckets: typeof raw.buckets === 'number' ? clampWidth('buckets', raw.buckets) : PANE_LIMITS.buckets.initial,
    transfers:
      typeof raw.transfers === 'number' ? clampWidth('transfers', raw.transfers) : PANE_LIMITS.transfers.initial,
    bucketsCollapsed: raw.bucketsCollapsed === true,
    transfersDocked: raw.transfersDocked !== false,
  };
}

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined; // Storage refused (a locked-down browser profile): the layout lasts the session.
  }
}

export const useLayout = create<LayoutState>((set, get) => {
  const remember = () => {
    const { buckets, transfers, bucketsCollapsed, transfersDocked } = get();
    try {
      storage()?.setItem(STORAGE_KEY, JSON.stringify({ buckets, transfers, bucketsCollapsed, transfersDocked }));
    } catch {
      // Full or refused: the layout still applies now.
    }
  };
  return {
    ...readLayout(storage()?.getItem(STORAGE_KEY) ?? null),
    drawerOpen: false,
    resize(pane, width) {
      set({ [pane]: clampWidth(pane, width) } as Pick<Layout, Pane>);
      remember();
    },
    setBucketsCollapsed(bucketsCollapsed) {
      set({ bucketsCollapsed });
      remember();
    },
    setTransfersDocked(transfersDocked) {
      set({ transfersDocked, drawerOpen: false });
      remember();
    },
    setDrawerOpen(drawerOpen) {
      set({ drawerOpen });
    },
  };
});
