import { describe, expect, it } from 'vitest';
import { clampWidth, PANE_LIMITS, readLayout } from '../../../renderer/store/layout-store.ts';

describe('the remembered layout', () => {
  it("reads back what was stored, each width kept within its pane's limits", () => {
    expect(
      readLayout(JSON.stringify({ buckets: 260, transfers: 500, bucketsCollapsed: true, transfersDocked: false })),
    ).toEqual({ buckets: 260, transfers: 500, bucketsCollapsed: true, transfersDocked: false });
    expect(readLayout(JSON.stringify({ buckets: 5, transfers: 99_999 }))).toMatchObject({
      buckets: PANE_LIMITS.buckets.min,
      transfers: PANE_LIMITS.transfers.max,
    });
  });

  it('falls back to the defaults for anything missing, mistyped or unreadable', () => {
    const defaults = {
      buckets: PANE_LIMITS.buckets.initial,
      transfers: PANE_LIMITS.transfers.initial,
      bucketsCollapsed: false,
      transfersDocked: true,
    };
    expect(readLayout(null)).toEqual(defaults);
    expect(readLayout('{not json')).toEqual(defaults);
    expect(readLayout('"a string"')).toEqual(defaults);
    expect(readLayout(JSON.stringify({ buckets: '300', bucketsCollapsed: 'yes', transfersDocked: 0 }))).toEqual(
      defaults,
    );
    expect(clampWidth('buckets', Number.NaN)).toBe(PANE_LIMITS.buckets.initial);
  });
});
