import type { TestEmulator } from './emulator.js';

/** An entry of the request journal (`GET /_payemu/requests`), as the tests read it. */
export type Entry = {
  id: string;
  at: string;
  method: string;
  path: string;
  query: Record<string, unknown>;
  status: number | null;
  duration_ms: number;
  idempotency_key: string | null;
  replayed: boolean;
  fault: string | null;
  request_body: unknown;
  response_body: unknown;
  request_body_cut: boolean;
  response_body_cut: boolean;
};
export type Journal = { requests: Entry[]; total: number };

/** The journal of the key's scope (`as`: another client), with `query`; throws on anything but a 200. */
export const journal = async (e: TestEmulator, query = '', as = e.api): Promise<Journal> => {
  const answer = await as.get<Journal>(`/_payemu/requests${query}`);
  if (answer.status !== 200) throw new Error(`journal: ${answer.status} ${answer.text}`);
  return answer.body;
};
