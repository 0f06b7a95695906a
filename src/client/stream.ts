import type { StreamMessage } from './types.js';

/**
 * The messages of a server-sent event stream as payemu writes them (`event: NAME` and one
 * `data: JSON` line, a blank line after each); comments (`: keep-alive`) and anything without
 * both lines are skipped. Ends when the server closes the stream.
 */
export async function* readEventStream(body: AsyncIterable<Uint8Array>): AsyncGenerator<StreamMessage> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const message = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const type = /^event: (.+)$/m.exec(message)?.[1];
      const data = /^data: (.+)$/m.exec(message)?.[1];
      if (!type || !data) continue;
      yield { type, data: JSON.parse(data) } as StreamMessage;
    }
  }
}
