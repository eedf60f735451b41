// A folder named on the machine that runs Barge: always its whole path, never a relative one.
//
// A relative path is taken from the working folder of whichever process answers (the web host's,
// the app's main process), which the person typing it cannot see: "exports" would land wherever
// the host happened to be started. The command line is the exception, and it resolves a relative
// path against its own working folder (where its user is) before it calls the service.

/**
 * Whether `text` is a whole path, on either kind of machine: "/…" (and "\\server\share") or a drive
 * ("C:\…", "C:/…"). The window cannot know the host's kind, so it takes both; the host decides by
 * its own rules (Node's path.isAbsolute).
 */
export function isWholePath(text: string): boolean {
  return text.startsWith('/') || text.startsWith('\\\\') || /^[A-Za-z]:[\\/]/.test(text);
}

/** What is said of a relative path, in the window's form and in the service's refusal alike. */
export function relativePathProblem(text: string): string {
  return (
    `"${text}" is a relative path: give the whole path, from the top (such as /home/me/Downloads); a relative ` +
    `one would be taken from whatever folder the host was started in.`
  );
}
