// node:http and node:https, loaded as CommonJS modules.
//
// Why not `import http from 'node:http'`: an ESM import of a builtin makes Node build its ESM facade,
// which reads every export, and in Node 24 some of node:http's exports are lazy getters that load
// undici (for WebSocket and EventSource). Measured on this machine: the import took 25-34 ms, the
// require 7-10 ms; most of a one-file `barge cp`'s start-up went there for nothing.

import { createRequire } from 'node:module';
import type * as HttpModule from 'node:http';
import type * as HttpsModule from 'node:https';

const require = createRequire(import.meta.url);

export const http = require('node:http') as typeof HttpModule;
export const https = require('node:https') as typeof HttpsModule;
