import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, it } from 'vitest';
import { DeleteDialog } from '../../../renderer/components/DeleteDialog.tsx';

const render = (prefixes: string[], keys: string[] = []) =>
  renderToStaticMarkup(
    createElement(DeleteDialog, {
      target: { connectionId: 'c1', bucket: 'demo-versions', keys, prefixes, confirmName: 'demo-versions' },
      onClose: () => undefined,
      onDeleted: () => undefined,
    }),
  );

it('a delete of a whole bucket (Empty bucket) says so in words, not "(whole bucket) (folder)"', () => {
  const html = render(['']);
  expect(html).toContain('everything in it');
  expect(html).not.toContain('(folder)');
  // A folder is still named as one.
  expect(render(['logs/'])).toContain('logs/</bdi> (folder)');
});

it('offers the filters on folders alone: objects picked by name go as named', () => {
  const folders = render(['logs/']);
  expect(folders).toContain('Older than');
  expect(folders).toContain('Exclude');
  const mixed = render(['logs/'], ['top.txt']);
  expect(mixed).not.toContain('Older than');
  expect(mixed).toContain('Objects picked by name go as named');
});
