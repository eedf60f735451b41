// barge: the command line over the transfer engine.

import { main } from './main.ts';

process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
