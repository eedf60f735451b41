// What kind of file a key names, from its extension: the icon the table shows beside it. Only the
// name is used (the table lists thousands of keys; nothing is fetched to decide).

export type FileKind = 'image' | 'video' | 'audio' | 'archive' | 'code' | 'spreadsheet' | 'text' | 'other';

const KINDS: Record<Exclude<FileKind, 'other'>, readonly string[]> = {
  image: [
    'png',
    'jpg',
    'jpeg',
    'gif',
    'webp',
    'avif',
    'heic',
    'bmp',
    'tif',
    'tiff',
    'svg',
    'ico',
    'raw',
    'cr2',
    'nef',
    'dng',
  ],
  video: ['mp4', 'mov', 'mkv', 'avi', 'webm', 'm4v', 'mpg', 'mpeg', 'wmv', 'flv', 'ts', 'mts'],
  audio: ['mp3', 'wav', 'flac', 'aac', 'ogg', 'oga', 'opus', 'm4a', 'wma', 'aiff'],
  archive: [
    'zip',
    'tar',
    'gz',
    'tgz',
    'bz2',
    'xz',
    'zst',
    '7z',
    'rar',
    'lz4',
    'iso',
    'dmg',
    'jar',
    'whl',
    'deb',
    'rpm',
    'parquet',
    'avro',
    'orc',
  ],
  code: [
    'js',
    'mjs',
    'cjs',
    'jsx',
    'tsx',
    'py',
    'go',
    'rs',
    'java',
    'c',
    'h',
    'cpp',
    'hpp',
    'cs',
    'rb',
    'php',
    'sh',
    'ps1',
    'swift',
    'kt',
    'scala',
    'sql',
    'html',
    'css',
    'json',
    'yaml',
    'yml',
    'toml',
    'xml',
    'ini',
    'tf',
  ],
  spreadsheet: ['csv', 'tsv', 'xls', 'xlsx', 'ods', 'numbers'],
  text: ['txt', 'md', 'rst', 'log', 'pdf', 'doc', 'docx', 'odt', 'rtf', 'tex', 'epub'],
};

const BY_EXTENSION = new Map<string, FileKind>(
  Object.entries(KINDS).flatMap(([kind, extensions]) => extensions.map((e) => [e, kind as FileKind])),
);

export function fileKind(name: string): FileKind {
  const dot = name.lastIndexOf('.');
  // No extension, or a dotfile such as ".env": nothing to go by.
  if (dot <= 0 || dot === name.length - 1) return 'other';
  return BY_EXTENSION.get(name.slice(dot + 1).toLowerCase()) ?? 'other';
}
