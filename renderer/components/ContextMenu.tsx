// A context menu (WAI-ARIA menu): opened by a right-click at the pointer, or by the ContextMenu key
// or Shift+F10 beside the focused element. The first item takes the focus; the arrows, Home and End
// move it, Enter or Space choose, and Escape (or Tab, or a click elsewhere) closes it and gives the
// focus back to where the menu was opened from.

import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';

export interface MenuItem {
  readonly label: string;
  readonly onSelect: () => void;
  readonly disabled?: boolean;
  /** A line above it: the start of another group of actions. */
  readonly separated?: boolean;
}

export interface MenuPlace {
  /** Where it opens, in the window's pixels (its top-left corner, moved in to stay on screen). */
  readonly x: number;
  readonly y: number;
  /** What the focus returns to when it closes without an action that moves it elsewhere. */
  readonly returnFocus: HTMLElement | null;
}

/** Whether a key press asks for the context menu: the ContextMenu key, or Shift+F10. */
export function asksForMenu(event: { key: string; shiftKey: boolean }): boolean {
  return event.key === 'ContextMenu' || (event.key === 'F10' && event.shiftKey);
}

/** Where a menu opened from the keyboard goes: at the element's bottom-left, a little in. */
export function placeBeside(element: HTMLElement): MenuPlace {
  const box = element.getBoundingClientRect();
  return { x: box.left + 24, y: box.bottom, returnFocus: element };
}

export function ContextMenu({
  label,
  items,
  place,
  onClose,
}: {
  label: string;
  items: readonly MenuItem[];
  place: MenuPlace;
  onClose: () => void;
}) {
  const menu = useRef<HTMLDivElement>(null);
  const [position, setPosition] = useState({ left: place.x, top: place.y });
  const close = (refocus: boolean) => {
    onClose();
    if (refocus) place.returnFocus?.focus();
  };

  useLayoutEffect(() => {
    const box = menu.current?.getBoundingClientRect();
    if (!box) return;
    setPosition({
      left: Math.max(0, Math.min(place.x, window.innerWidth - box.width - 4)),
      top: Math.max(0, Math.min(place.y, window.innerHeight - box.height - 4)),
    });
    menu.current?.querySelector<HTMLElement>('[role=menuitem]:not([aria-disabled=true])')?.focus();
  }, [place]);

  useEffect(() => {
    const away = (event: PointerEvent) => {
      if (!menu.current?.contains(event.target as Node)) onClose();
    };
    const blur = () => onClose();
    document.addEventListener('pointerdown', away, true);
    window.addEventListener('blur', blur);
    return () => {
      document.removeEventListener('pointerdown', away, true);
      window.removeEventListener('blur', blur);
    };
  }, [onClose]);

  function keys(event: KeyboardEvent<HTMLDivElement>) {
    const enabled = [...(menu.current?.querySelectorAll<HTMLElement>('[role=menuitem]') ?? [])].filter(
      (item) => item.getAttribute('aria-disabled') !== 'true',
    );
    const at = enabled.indexOf(document.activeElement as HTMLElement);
    const steps: Record<string, number> = {
      ArrowDown: (at + 1) % enabled.length,
      ArrowUp: (at - 1 + enabled.length) % enabled.length,
      Home: 0,
      End: enabled.length - 1,
    };
    if (event.key in steps) {
      event.preventDefault();
      enabled[steps[event.key]!]?.focus();
    } else if (event.key === 'Escape' || asksForMenu(event)) {
      event.preventDefault();
      event.stopPropagation();
      close(true);
    } else if (event.key === 'Tab') {
      event.preventDefault();
      close(true);
    }
  }

  function choose(item: MenuItem) {
    if (item.disabled) return;
    // Focus goes back first: a dialog the action opens then gives it back to the row when it closes.
    close(true);
    item.onSelect();
  }

  return (
    <div
      ref={menu}
      role="menu"
      aria-label={label}
      className="context-menu"
      style={{ left: position.left, top: position.top }}
      onKeyDown={keys}
      onContextMenu={(e) => e.preventDefault()}
    >
      {items.map((item) => (
        <div
          key={item.label}
          role="menuitem"
          tabIndex={-1}
          aria-disabled={item.disabled || undefined}
          className={item.separated ? 'separated' : undefined}
          onClick={() => choose(item)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' || e.key === ' ') {
              e.preventDefault();
              choose(item);
            }
          }}
        >
          {item.label}
        </div>
      ))}
    </div>
  );
}
