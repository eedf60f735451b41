// A name from a bucket or a disk (a key, a file, a folder, a job named after them), as the window
// shows it: isolated (<bdi>), so a right-to-left character in it cannot reorder the text around it,
// and with its control characters, bidi overrides and line separators shown as escapes
// (src/unsafe-text.ts), so "invoice-\u202efdp.exe" never reads "invoice-exe.pdf". Spaces are kept.

import { printable } from '../../src/unsafe-text.ts';

export function Name({ text, className }: { text: string; className?: string }) {
  return <bdi className={className}>{printable(text)}</bdi>;
}
