// The command line's door to Barge: the same service API the window uses, called in-process.
//
// A call that fails throws its error (a code and a sentence) for the command to print: the
// command line has one reader, and an exit status to set, not a screen to keep alive.

import type { ApiEvent, MethodName, MethodParams, MethodResults } from '../../src/contract/api.ts';
import { BargeError } from '../../src/errors.ts';
import type { BargeService } from '../service/barge-service.ts';
import type { Result } from '../../src/contract/result.ts';
import type { ObjectStream, StreamUploadResult } from '../service/barge-service.ts';

export interface CliService {
  call<M extends MethodName>(method: M, params: MethodParams<M>): Promise<MethodResults[M]>;
  subscribe(listener: (event: ApiEvent) => void): () => void;
  /** cat's data channel (BargeService.readObject), thrown on failure. */
  readObject(...args: Parameters<BargeService['readObject']>): Promise<ObjectStream>;
  /** pipe's data channel (BargeService.writeObject), thrown on failure. */
  writeObject(...args: Parameters<BargeService['writeObject']>): Promise<StreamUploadResult>;
}

async function thrown<T>(result: Promise<Result<T>>): Promise<T> {
  const answer = await result;
  if (!answer.ok) throw new BargeError(answer.error.code, answer.error.message);
  return answer.value;
}

export function cliService(service: BargeService): CliService {
  return {
    async call<M extends MethodName>(method: M, params: MethodParams<M>): Promise<MethodResults[M]> {
      const result = await service.dispatch(method, params);
      if (!result.ok) throw new BargeError(result.error.code, result.error.message);
      return result.value as MethodResults[M];
    },
    subscribe: (listener) => service.subscribe(listener),
    readObject: (...args) => thrown(service.readObject(...args)),
    writeObject: (...args) => thrown(service.writeObject(...args)),
  };
}
