// One JSON request with the default fixture key, over node:http, for set-up rather than for
// measuring. Apart from lib.js so that bench/recurring.js, which runs payemu in its own process
// and reads that process's memory, loads neither autocannon nor fetch's own HTTP client (undici:
// about 35 MB more resident memory, which is the bench's, not payemu's).
import http from 'node:http';

export const KEY = 'sk_test_payemu_acme';
export const AUTH = { authorization: `Bearer ${KEY}` };

/**
 * `{status, json}` of one request; `agent` defaults to a new connection per request.
 * @param {string} url
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @param {http.Agent | false} [agent]
 * @returns {Promise<{status: number | undefined, json: any}>}
 */
export function request(url, method, path, body, agent = false) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      `${url}${path}`,
      { method, agent, headers: { ...AUTH, ...(data ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } : {}) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode, json: text ? JSON.parse(text) : undefined }));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}
