// No line of production code runs past 120 columns: Prettier holds code to it, but not a template
// literal's expressions or a JSX line it cannot break, and eslint's max-len exempts strings.
//
// SQL table definitions are left as written: a schema's text is stored by SQLite as given.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const MAX_COLUMNS = 120;
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..', '..');
/** A column of a CREATE TABLE, or the statement's first line. */
const SQL_SCHEMA_LINE = /CREATE TABLE|\b(TEXT|INTEGER|REAL)( NOT NULL)?,/;

function sourcesUnder(folder: string): string[] {
  return readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name))
    .map((name) => path.join(folder, name));
}

it('no production line is longer than 120 columns, SQL schemas apart', () => {
  const long = ['main', 'src', 'renderer'].flatMap(sourcesUnder).flatMap((file) =>
    readFileSync(path.join(root, file), 'utf8')
      .split('\n')
      .flatMap((line, index) =>
        line.length > MAX_COLUMNS && !SQL_SCHEMA_LINE.test(line) ? [`${file}:${index + 1}`] : [],
      ),
  );
  expect(long).toEqual([]);
});
