import type { ServerResponse } from 'node:http';
import { type ExportedSnapshot, RecordText } from './snapshot.js';

/** How much text a piece of a snapshot holds before it is written: large enough that a write is rare, small beside the whole. */
const PIECE_CHARS = 256 * 1024;

/**
 * The JSON text of a snapshot document in pieces of about PIECE_CHARS characters, each record
 * stringified as it comes (a RecordText as it was read): the same document as
 * `JSON.stringify(document)` makes, never held whole.
 */
export function* snapshotText(document: ExportedSnapshot): Generator<string> {
  let piece = `{"payemu_snapshot":${JSON.stringify(document.payemu_snapshot)},"scope":${JSON.stringify(document.scope)},"clock":${JSON.stringify(document.clock)},"data":{`;
  let firstCollection = true;
  for (const [name, records] of Object.entries(document.data)) {
    piece += `${firstCollection ? '' : ','}${JSON.stringify(name)}:[`;
    firstCollection = false;
    for (let i = 0; i < records.length; i++) {
      if (i > 0) piece += ',';
      const record = records[i];
      piece += record instanceof RecordText ? record.text : JSON.stringify(record);
      if (piece.length >= PIECE_CHARS) {
        yield piece;
        piece = '';
      }
    }
    piece += ']';
  }
  yield `${piece}}}`;
}

/**
 * Writes a snapshot document as the answer, piece by piece as the socket takes them (chunked,
 * no Content-Length): the export of 100,000 payments never holds its 33 MB of text. The
 * document's lists were taken from the store at once, when the request ran, and a stored
 * record is replaced rather than changed in place, so what goes out is the state of that moment
 * even when other requests change the store while it is written.
 */
export async function writeSnapshotAnswer(document: ExportedSnapshot, res: ServerResponse, status: number): Promise<void> {
  res.writeHead(status, { 'Content-Type': 'application/json', 'X-Content-Type-Options': 'nosniff' });
  for (const piece of snapshotText(document)) {
    if (res.destroyed) return;
    if (!res.write(piece)) await drained(res);
  }
  res.end();
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
