import net from 'node:net';
import type { Case } from './cases.js';

// The hostile cases over raw sockets: each request sent byte for byte, and its answer judged.

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function encode(c: Case, host: string): Buffer {
  if (c.raw) return c.raw;
  const headers = c.headers ?? [];
  const lines = [`${c.method} ${c.target} HTTP/1.1`, `Host: ${host}`, 'Connection: close', ...headers.map(([k, v]) => `${k}: ${v}`)];
  const body = c.body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(c.body) ? c.body : Buffer.from(c.body, 'utf8');
  const framed = headers.some(([k]) => /^(content-length|transfer-encoding)$/i.test(k));
  if (!framed && (body.length > 0 || c.body !== undefined)) lines.push(`Content-Length: ${body.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'utf8'), body]);
}

/**
 * Sends bytes on a new connection and reads until the server closes it. Raw cases also end
 * their side, so a request cut short meets the end of the stream rather than a server waiting
 * for the rest.
 */
export function exchange(port: number, bytes: Buffer, end: boolean): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1', () => (end ? socket.end(bytes) : socket.write(bytes)));
    // A guard, not a wait: a request the server neither answers nor closes fails the case.
    socket.setTimeout(15_000, () => socket.destroy(new Error('no answer within 15 s')));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks)));
    socket.on('close', () => resolve(Buffer.concat(chunks)));
    // A reset after the answer arrived (the server closed while we were still sending) is fine.
    socket.on('error', (error) => (chunks.length > 0 ? resolve(Buffer.concat(chunks)) : reject(error)));
  });
}

export function parse(bytes: Buffer): Answer | undefined {
  const split = bytes.indexOf('\r\n\r\n');
  if (split === -1) return undefined;
  const [statusLine, ...headerLines] = bytes.subarray(0, split).toString('latin1').split('\r\n');
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '');
  if (!match) return undefined;
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = bytes.subarray(split + 4);
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
    const parts: Buffer[] = [];
    let at = 0;
    for (;;) {
      const end = body.indexOf('\r\n', at);
      const size = parseInt(body.subarray(at, end).toString('latin1'), 16);
      if (!(size > 0)) break;
      parts.push(body.subarray(end + 2, end + 2 + size));
      at = end + 2 + size + 2;
    }
    body = Buffer.concat(parts);
  }
  return { status: Number(match[1]), headers, body: body.toString('utf8') };
}

/** What is wrong with the answer to `c`, or undefined. */
export function judge(c: Case, answer: Answer | undefined): string | undefined {
  if (!answer) return 'no HTTP answer (connection closed)';
  if (answer.status < 400 || answer.status > 499) return `status ${answer.status}`;
  const expected = c.expect === undefined ? undefined : [c.expect].flat();
  if (expected && !expected.includes(answer.status)) return `status ${answer.status}, expected ${expected.join(' or ')}`;
  if (c.method === 'HEAD') return undefined; // no body by definition
  if (!/^application\/json/.test(answer.headers['content-type'] ?? '')) return `content-type ${answer.headers['content-type']}`;
  let json: any;
  try {
    json = JSON.parse(answer.body);
  } catch {
    return 'body is not JSON';
  }
  const error = json?.errors?.[0];
  if (!Array.isArray(json?.errors) || json.errors.length !== 1) return 'no errors array';
  if (error.status !== String(answer.status)) return `errors[0].status ${JSON.stringify(error.status)}`;
  if (typeof error.title !== 'string' || typeof error.detail !== 'string' || error.detail === '') return 'title/detail missing';
  if (answer.status === 422 && error.meta !== undefined && typeof error.meta.errors !== 'object') return 'meta.errors is not a map';
  return undefined;
}
