// A process that runs one journaled job the way the app does (host "app"), to be killed with
// SIGKILL by a test, which then brings the job back from the journal in another engine.
//
//   node tests/support/journaled-engine.ts <journal file> <connection JSON> <upload|download> <spec JSON> [connection
//   ref]

import { Engine } from '../../main/engine/engine.ts';
import { Journal } from '../../main/engine/journal/journal.ts';
import { MIB } from '../../src/byte-units.ts';

const [journalFile, connectionJson, kind, specJson, connectionRef = 'saved-connection'] = process.argv.slice(2);
const journal = await Journal.open(journalFile!);
const engine = new Engine({ journal, host: 'app', settings: { threads: 2, partSizeBytes: 5 * MIB } });
const connection = await engine.connect(JSON.parse(connectionJson!));
const spec = JSON.parse(specJson!);
const job =
  kind === 'upload'
    ? engine.upload(connection, spec, { connectionRef })
    : engine.download(connection, spec, { connectionRef });
const end = await job.finished();
process.stdout.write(`${end.state.status}\n`);
await engine.close();
