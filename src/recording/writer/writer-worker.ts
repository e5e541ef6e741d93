/**
 * Entry point of the recording writer thread (spawn-recording-worker.ts says how it is loaded).
 * Exits when told to close, after the last commit.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { WriterHost, type WriterInit } from './writer-host';
import type { WriterCommand, WriterReply } from './writer-protocol';

const port = parentPort!;
const host = new WriterHost(workerData as WriterInit, (reply: WriterReply) => port.postMessage(reply));
port.on('message', (cmd: WriterCommand) => {
  if (cmd.k === 'batch') cmd.batch.data = Buffer.from(cmd.batch.data.buffer, cmd.batch.data.byteOffset, cmd.batch.data.byteLength);
  host.command(cmd);
  if (cmd.k === 'close') port.close();
});
