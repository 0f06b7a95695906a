import fs from 'node:fs';

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

export type DriftLog = (method: string, path: string, res: Response) => Promise<void>;

/**
 * A test hook, off unless PAYEMU_DRIFT_LOG names a file: then every answer the client receives is
 * appended to that file as one JSON line (a `DriftEntry`). payemu's test suite sets it on the CLI
 * processes it starts and checks each line against the OpenAPI document, as it checks the answers
 * its own client receives. The body is read from a clone, so the caller reads the answer as
 * always; one synchronous append per answer, so a process killed mid-run leaves whole lines.
 */
export function driftLog(file: string | undefined = process.env.PAYEMU_DRIFT_LOG): DriftLog | undefined {
  if (!file) return undefined;
  return async (method, path, res) => {
    const contentType = res.headers.get('content-type');
    const stream = /^text\/event-stream\b/i.test(contentType ?? '');
    const entry: DriftEntry = { method, path, status: res.status, contentType, text: stream ? '' : await res.clone().text() };
    fs.appendFileSync(file, `${JSON.stringify(entry)}\n`);
  };
}
