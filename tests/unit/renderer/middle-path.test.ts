import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, it } from 'vitest';
import { MiddlePath } from '../../../renderer/components/MiddlePath.tsx';
import { splitForMiddle } from '../../../renderer/middle-path.ts';

it('keeps the name at the end of a path whole, and gives the folders before it to be shortened', () => {
  expect(splitForMiddle('s3://bucket/photos/2024/summer/IMG_0042.jpg')).toEqual({
    head: 's3://bucket/photos/2024/summer/',
    tail: 'IMG_0042.jpg',
  });
  expect(splitForMiddle('/home/me/Downloads/report.pdf')).toEqual({ head: '/home/me/Downloads/', tail: 'report.pdf' });
  expect(splitForMiddle('C:\\Users\\me\\report.pdf')).toEqual({ head: 'C:\\Users\\me\\', tail: 'report.pdf' });
  // A folder keeps its own name and slash.
  expect(splitForMiddle('s3://bucket/photos/2024/')).toEqual({ head: 's3://bucket/photos/', tail: '2024/' });
  expect(splitForMiddle('notes.txt')).toEqual({ head: '', tail: 'notes.txt' });
  // A name too long to keep whole keeps its end (its extension and the part that differs most often).
  const long = `a-very-long-name-${'x'.repeat(60)}-0042.tar.gz`;
  const split = splitForMiddle(`/dl/${long}`);
  expect(split.tail).toBe(long.slice(-24));
  expect(split.head + split.tail).toBe(`/dl/${long}`);
});

it('shows the whole path in a tooltip, escaped and isolated, with the end never cut', () => {
  const html = renderToStaticMarkup(createElement(MiddlePath, { text: 's3://b/folder/invoice-\u202efdp.exe' }));
  expect(html).toBe(
    '<bdi class="middle-path" title="s3://b/folder/invoice-\\u202efdp.exe"><span class="middle-path-head">s3://b/folder/</span><span class="middle-path-tail">invoice-\\u202efdp.exe</span></bdi>',
  );
});
