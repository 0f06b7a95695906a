import fs from 'node:fs';
import { bytesOf, textOf, type TransportAnswer } from './http-transport.js';

/** One answer as the drift log records it: what the test suite checks against the OpenAPI document. */
export interface DriftEntry {
  method: string;
  /** The path and query as the client sent them. */
  path: string;
  status: number;
  contentType: string | null;
  /** The body as text; '' for an event stream, which is never read to its end. */
  text: string;
}

/** Logs an answer; resolves with the answer to go on with (its body read here, handed on as read). */
export type DriftLog = (method: string, path: string, res: TransportAnswer) => Promise<TransportAnswer>;

/**
 * A test hook, off unless PAYEMU_DRIFT_LOG names a file: then every answer the client receives is
 * appended to that file as one JSON line (a `DriftEntry`). payemu's test suite sets it on the CLI
 * processes it starts and checks each line against the OpenAPI document, as it checks the answers
 * its own client receives. The body is read here and handed on, so the caller reads the answer as
 * always; one synchronous append per answer, so a process killed mid-run leaves whole lines.
 */
export function driftLog(file: string | undefined = process.env.PAYEMU_DRIFT_LOG): DriftLog | undefined {
  if (!file) return undefined;
  return async (method, path, res) => {
    const contentType = res.headers.get('content-type');
    const log = (text: string) => {
      const entry: DriftEntry = { method, path, status: res.status, contentType, text };
      fs.appendFileSync(file, `${JSON.stringify(entry)}\n`);
    };
    // An event stream is never read to its end: logged without its body, and handed on unread.
    if (/^text\/event-stream\b/i.test(contentType ?? '')) {
      log('');
      return res;
    }
    const bytes = res.body ? await bytesOf(res.body) : Buffer.alloc(0);
    const text = textOf(bytes);
    log(text);
    const body =
      res.body &&
      (async function* () {
        yield bytes;
      })();
    return { status: res.status, ok: res.ok, headers: res.headers, body, text: async () => text };
  };
}
