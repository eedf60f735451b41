// The Content-Disposition of a download a browser saves: the file's name as it is (RFC 8187's
// filename*, UTF-8) and a plain ASCII one for browsers that read only that (RFC 6266).

/** `attachment` (saved, never shown in the page) under `fileName`, which holds no control character. */
export function attachmentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  let encoded: string;
  try {
    encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  } catch {
    // A name that is not well-formed Unicode (a lone surrogate) has no UTF-8 form: the ASCII one stands.
    return `attachment; filename="${fallback}"`;
  }
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
