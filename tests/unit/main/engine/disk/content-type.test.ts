import mime from 'mime';
import otherTypes from 'mime/types/other.js';
import standardTypes from 'mime/types/standard.js';
import { expect, it } from 'vitest';
import { contentTypeOf } from '../../../../../main/engine/disk/content-type.ts';

it("gives every file name the type mime's own table gives it, one extension at a time and past the whole table", () => {
  const lists: Record<string, string[]>[] = [standardTypes, otherTypes];
  const extensions = lists.flatMap((list) =>
    Object.values(list).flatMap((exts) => exts.map((ext) => ext.replace(/^\*/, ''))),
  );
  const names = extensions.flatMap((ext) => [
    `/home/me/file.${ext}`,
    `/home/me/FILE.${ext.toUpperCase()}`,
    `relative/dir/a.b.${ext}`,
    ext,
    `/home/me/${ext}`,
  ]);
  names.push('/no/extension', '/dot/at/end.', '/a/.hidden', '.bashrc', 'C:\\files\\report.PDF', '/x/y.unknownext', '');
  for (const name of names) expect(contentTypeOf(name), name).toBe(mime.getType(name));
});
