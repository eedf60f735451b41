// A name that keeps its start and its end where its room is too narrow (shorten-middle.ts), the
// whole of it in a tooltip and for a screen reader; isolated and escaped as Name shows every name. Measured with the
// element's own font, again whenever its room changes.

import { useLayoutEffect, useRef, useState } from 'react';
import { printable } from '../../src/unsafe-text.ts';
import { shortenInMiddle } from '../shorten-middle.ts';

let canvas: CanvasRenderingContext2D | null | undefined;

function textWidth(text: string, font: string): number {
  canvas ??= document.createElement('canvas').getContext('2d');
  if (!canvas) return 0;
  canvas.font = font;
  return canvas.measureText(text).width;
}

export function MiddleShortenedName({ text, className }: { text: string; className?: string }) {
  const printed = printable(text);
  const box = useRef<HTMLSpanElement>(null);
  const [shown, setShown] = useState(printed);
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const fit = () => {
      const room = element.clientWidth;
      const font = getComputedStyle(element).font;
      // Not laid out yet (a hidden drawer): the whole name, cut at its end by the CSS meanwhile.
      setShown(room === 0 ? printed : shortenInMiddle(printed, (candidate) => textWidth(candidate, font) <= room));
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(element);
    return () => observer.disconnect();
  }, [printed]);
  // A screen reader and a search of the page find the whole name; the eye sees what fits.
  // Whole, it is said once.
  return (
    <span ref={box} className={className} title={printed}>
      {shown === printed ? (
        <bdi>{printed}</bdi>
      ) : (
        <>
          <bdi aria-hidden="true">{shown}</bdi>
          <bdi className="visually-hidden">{printed}</bdi>
        </>
      )}
    </span>
  );
}
