import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { DashScope } from './scope.js';

/**
 * The dashboard's forms carry a token: an HMAC, under a secret made once per process, of the
 * Source, mode and action, and the namespace when it is a named one (a form of one namespace
 * cannot be posted into another). Another site cannot read it, so it cannot make a browser post a
 * dashboard form; a restart makes old pages' tokens stale (reload the page).
 */
const SECRET = randomBytes(32);

export function csrfToken(scope: DashScope, action: string): string {
  const named = scope.namespace === undefined ? '' : `\n${scope.namespace}`;
  return createHmac('sha256', SECRET).update(`${scope.source.slug}\n${scope.mode}\n${action}${named}`).digest('base64url');
}

/** Why a dashboard POST is refused, or undefined when its token and origin are good. */
export function refusal(req: IncomingMessage, scope: DashScope, action: string, token: string | undefined): string | undefined {
  const origin = req.headers.origin;
  // A browser names the page's origin on a form post; it must be this payemu (the Host already passed the Host check).
  if (origin !== undefined && origin !== `http://${req.headers.host}` && origin !== `https://${req.headers.host}`)
    return `The form was sent from another site (${origin}).`;
  if (req.headers['sec-fetch-site'] === 'cross-site') return 'The form was sent from another site.';
  if (!token) return 'The form carried no security token.';
  const expected = Buffer.from(csrfToken(scope, action));
  const given = Buffer.from(token);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'The form’s security token is not valid (reload the page and try again).';
  return undefined;
}
