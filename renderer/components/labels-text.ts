// Metadata and tags as the details dialog edits them: one "name=value" a line.

/** The lines as a record; a line without "=" or a name given twice is refused by its line number. */
export function parseLabelLines(text: string, what: string): Record<string, string> | string {
  const record: Record<string, string> = {};
  const lines = text.split('\n');
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '') continue;
    const equals = line.indexOf('=');
    if (equals <= 0) return `${what}, line ${index + 1}: write name=value, not "${line}".`;
    const name = line.slice(0, equals).trim();
    if (Object.hasOwn(record, name)) return `${what}, line ${index + 1}: ${name} is given twice.`;
    record[name] = line.slice(equals + 1).trim();
  }
  return record;
}

export function labelLines(record: Readonly<Record<string, string>>): string {
  return Object.entries(record)
    .map(([name, value]) => `${name}=${value}`)
    .join('\n');
}
