// The one API object the window talks through, set once at start-up.

import type { BargeApi, MethodName, MethodParams, MethodResults } from '../../src/contract/api.ts';

let current: BargeApi | undefined;

export function setApi(api: BargeApi): void {
  current = api;
}

export function api(): BargeApi {
  if (!current) throw new Error('The API is not ready yet.');
  return current;
}

/** Call and unwrap: resolves with the value, or rejects with the error's message (for the UI). */
export async function request<M extends MethodName>(method: M, params: MethodParams<M>): Promise<MethodResults[M]> {
  const result = await api().call(method, params);
  if (!result.ok) throw Object.assign(new Error(result.error.message), { code: result.error.code });
  return result.value;
}
