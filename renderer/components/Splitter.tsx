// A vertical splitter between two panes (the WAI-ARIA window splitter): drag it with the mouse, or
// focus it and press the arrow keys (Shift for bigger steps), Home/End for the limits, Enter to
// put the pane back to its first width.

import { useRef } from 'react';
import type { KeyboardEvent, PointerEvent } from 'react';
import { PANE_LIMITS, useLayout } from '../store/layout-store.ts';
import type { Pane } from '../store/layout-store.ts';

/** `side`: where the pane sits relative to the splitter, so dragging towards it shrinks it. */
export function Splitter({ pane, side, label }: { pane: Pane; side: 'left' | 'right'; label: string }) {
  const width = useLayout((s) => s[pane]);
  const resize = useLayout((s) => s.resize);
  const drag = useRef<{ x: number; width: number }>(undefined);
  const limits = PANE_LIMITS[pane];
  const grow = side === 'left' ? 1 : -1;

  function down(event: PointerEvent<HTMLDivElement>) {
    event.currentTarget.setPointerCapture(event.pointerId);
    event.currentTarget.classList.add('dragging');
    drag.current = { x: event.clientX, width };
  }
  function move(event: PointerEvent<HTMLDivElement>) {
    if (drag.current) resize(pane, drag.current.width + grow * (event.clientX - drag.current.x));
  }
  function up(event: PointerEvent<HTMLDivElement>) {
    event.currentTarget.classList.remove('dragging');
    drag.current = undefined;
  }
  function key(event: KeyboardEvent<HTMLDivElement>) {
    const step = event.shiftKey ? 50 : 10;
    const to = {
      ArrowLeft: width - grow * step,
      ArrowRight: width + grow * step,
      Home: limits.min,
      End: limits.max,
      Enter: limits.initial,
    }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    resize(pane, to);
  }

  return (
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuemin={limits.min}
      aria-valuemax={limits.max}
      aria-valuenow={width}
      tabIndex={0}
      className="splitter"
      onPointerDown={down}
      onPointerMove={move}
      onPointerUp={up}
      onPointerCancel={up}
      onKeyDown={key}
    />
  );
}
