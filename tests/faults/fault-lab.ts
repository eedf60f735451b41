// The fault matrix's own little network: a MinIO of its own, toxiproxy in front of it (TCP faults)
// and the HTTP fault proxy (S3 error answers), each a route the engine can be pointed at.
//
// The lab's MinIO is not the one the other integration tests share: a scenario stops and restarts
// it, which would break every test running beside it.

import type { ConnectionConfig } from '../../src/connection.ts';
import { startFaultProxy } from '../support/fault-proxy.ts';
import type { FaultProxy } from '../support/fault-proxy.ts';
import { startS3Server } from '../support/s3-server.ts';
import type { RunningS3Server } from '../support/s3-server.ts';
import { startToxiproxy } from '../support/toxiproxy.ts';
import type { ToxiproxyProxy, ToxiproxyServer } from '../support/toxiproxy.ts';

/**
 * How the engine reaches MinIO: through toxiproxy (TCP-level faults), through the HTTP fault proxy
 * (S3-level answers such as 503 SlowDown), or straight (the server itself fails: a restart).
 */
export type Route = 'toxiproxy' | 'http-proxy' | 'direct';

export interface FaultLab {
  readonly server: RunningS3Server;
  readonly toxiproxy: ToxiproxyProxy;
  readonly httpProxy: FaultProxy;
  connectionConfig(route: Route): ConnectionConfig;
  /** Take every fault away (toxics, proxy rule) and make sure MinIO is up: the next scenario starts clean. */
  clearFaults(): Promise<void>;
  close(): Promise<void>;
}

export async function startFaultLab(): Promise<FaultLab> {
  // The matrix is specified against MinIO (whatever BARGE_TEST_SERVER says for the other tests).
  const server = await startS3Server('minio');
  const opened: { toxiproxyServer?: ToxiproxyServer; httpProxy?: FaultProxy } = {};
  const closeAll = async () => {
    await opened.httpProxy?.close();
    await opened.toxiproxyServer?.stop();
    await server.stop();
  };
  try {
    const toxiproxyServer = (opened.toxiproxyServer = await startToxiproxy());
    const toxiproxy = await toxiproxyServer.createProxy('minio', server.endpoint);
    const httpProxy = (opened.httpProxy = await startFaultProxy(server.endpoint));
    const endpoints: Record<Route, string> = {
      toxiproxy: toxiproxy.endpoint,
      'http-proxy': httpProxy.endpoint,
      direct: server.endpoint,
    };
    return {
      server,
      toxiproxy,
      httpProxy,
      connectionConfig: (route) => ({
        endpoint: endpoints[route],
        region: server.region,
        accessKeyId: server.accessKeyId,
        secretAccessKey: server.secretAccessKey,
        pathStyle: true,
      }),
      async clearFaults() {
        await toxiproxy.removeAllToxics();
        httpProxy.setRule(() => undefined);
        if (server.process.exitCode !== null || server.process.signalCode !== null) await server.restart();
      },
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
