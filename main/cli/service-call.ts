// The command line's door to Barge: the same service API the window uses, called in-process.
//
// A call that fails throws its error (a code and a sentence) for the command to print: the
// command line has one reader, and an exit status to set, not a screen to keep alive.

import type { ApiEvent, MethodName, MethodParams, MethodResults } from '../../src/contract/api.ts';
import { BargeError } from '../../src/errors.ts';
import type { BargeService } from '../service/barge-service.ts';

export interface CliService {
  call<M extends MethodName>(method: M, params: MethodParams<M>): Promise<MethodResults[M]>;
  subscribe(listener: (event: ApiEvent) => void): () => void;
}

export function cliService(service: BargeService): CliService {
  return {
    async call<M extends MethodName>(method: M, params: MethodParams<M>): Promise<MethodResults[M]> {
      const result = await service.dispatch(method, params);
      if (!result.ok) throw new BargeError(result.error.code, result.error.message);
      return result.value as MethodResults[M];
    },
    subscribe: (listener) => service.subscribe(listener),
  };
}
