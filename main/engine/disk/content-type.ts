// A file's Content-Type from its name, as the `mime` package says it, without building its whole table.
//
// Why: `mime`'s default export builds maps of its 1,200 types and their extensions when it is imported,
// about 8-12 ms of a command's start-up, paid by every command that loads the engine (a download, `ls`) and
// by an upload that needs one or two extensions. Here each extension is looked up in mime's own type
// lists once, when first asked for, and remembered; past a few dozen extensions the whole table is built.

import otherTypes from 'mime/types/other.js';
import standardTypes from 'mime/types/standard.js';

/** Distinct extensions looked up one by one before the whole table is built instead. */
const LOOKUPS_BEFORE_TABLE = 64;
const TYPE_LISTS: readonly Readonly<Record<string, readonly string[]>>[] = [standardTypes, otherTypes];

const known = new Map<string, string | null>();
let table: Map<string, string> | undefined;

/** The type `mime.getType(file)` gives (null where it knows none): by the extension of the name's last part. */
export function contentTypeOf(file: string): string | null {
  // mime's own reading of a name: the last part, its extension after the last dot, both lowercased.
  const last = file.replace(/^.*[/\\]/s, '').toLowerCase();
  const extension = last.replace(/^.*\./s, '');
  const hasPath = last.length < file.length;
  const hasDot = extension.length < last.length - 1;
  if (!hasDot && hasPath) return null;
  if (table) return table.get(extension) ?? null;
  let type = known.get(extension);
  if (type === undefined) {
    if (known.size >= LOOKUPS_BEFORE_TABLE) {
      table = wholeTable();
      return table.get(extension) ?? null;
    }
    type = typeOfExtension(extension);
    known.set(extension, type);
  }
  return type;
}

/**
 * The type that names `extension` (mime refuses two types for one extension, so there is at most one); an
 * extension marked with "*" names none, as in mime.
 */
function typeOfExtension(extension: string): string | null {
  for (const list of TYPE_LISTS)
    for (const type in list) if (list[type]!.some((ext) => ext.toLowerCase() === extension)) return type.toLowerCase();
  return null;
}

function wholeTable(): Map<string, string> {
  const map = new Map<string, string>();
  for (const list of TYPE_LISTS)
    for (const type in list)
      for (const ext of list[type]!) if (!ext.startsWith('*')) map.set(ext.toLowerCase(), type.toLowerCase());
  return map;
}
