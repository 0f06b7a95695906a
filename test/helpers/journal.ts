import type { RequestList, RequestView } from '../../src/control/types.js';
import type { TestEmulator } from './emulator.js';

/** An entry of the request journal (`GET /_payemu/requests`), and the list: the answer's types, derived from its schema. */
export type Entry = RequestView;
export type Journal = RequestList;

/** The journal of the key's scope (`as`: another client), with `query`; throws on anything but a 200. */
export const journal = async (e: TestEmulator, query = '', as = e.api): Promise<Journal> => {
  const answer = await as.get<Journal>(`/_payemu/requests${query}`);
  if (answer.status !== 200) throw new Error(`journal: ${answer.status} ${answer.text}`);
  return answer.body;
};
