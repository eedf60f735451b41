import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, it } from 'vitest';
import { LimitReadout } from '../../../renderer/components/LimitReadout.tsx';
import type { LimitReadout as Readout } from '../../../src/contract/models.ts';

const render = (limit: Readout | undefined) => renderToStaticMarkup(createElement(LimitReadout, { limit }));

it('says what limits the transfers by its name, what would help, and the figures behind it', () => {
  const html = render({
    kind: 'latency',
    words: "Latency-bound: requests spend most of their time waiting for the store's answer; more threads would help.",
    figures: [
      { name: 'waitShare', value: 0.84, text: '84% of request time waiting for the store' },
      { name: 'requestsInFlight', value: 4, text: '4 in flight' },
    ],
  });
  expect(html).toContain('Limited by <strong>latency</strong>: requests spend most of their time');
  expect(html).toContain('more threads would help.');
  expect(html).toContain('(84% of request time waiting for the store, 4 in flight)');
  expect(html).toContain('role="note"');
});

it('shows nothing when the engine names no limit', () => {
  expect(render(undefined)).toBe('');
});
