// How answers cross from the engine to the window: a result, never a throw.
//
// Only an error's message survives a throw across Electron's IPC, so every call answers with an
// envelope that carries a code the UI can act on and a message a person can read.

import { z } from 'zod';

export const apiErrorSchema = z.object({ code: z.string(), message: z.string() });
export type ApiError = z.infer<typeof apiErrorSchema>;

export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: ApiError };

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function failure(code: string, message: string): Result<never> {
  return { ok: false, error: { code, message } };
}
