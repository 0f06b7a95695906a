import { createHash } from 'node:crypto';
import type { HttpApp } from '../http/http-app.js';
import type { Reply } from '../http/envelope.js';
import { open, type OpenRoute } from '../http/route.js';

/** Tiny helpers for the hosted pages: plain server-rendered HTML that works without JavaScript. */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** A tagged template whose interpolations are escaped unless wrapped in `raw()`. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Raw {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += (Array.isArray(value) ? value.map(render).join('') : render(value)) + strings[i + 1]!;
  });
  return new Raw(out);
}

export class Raw {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export const raw = (value: string) => new Raw(value);

function render(value: unknown): string {
  if (value instanceof Raw) return value.value;
  if (value === undefined || value === null || value === false) return '';
  return escapeHtml(value);
}

const STYLE = `
  *{box-sizing:border-box} body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;background:#f4f5f7;color:#1f2430}
  main{max-width:440px;margin:40px auto;background:#fff;border-radius:12px;box-shadow:0 2px 12px rgba(0,0,0,.08);padding:28px}
  .badge{display:inline-block;font-size:12px;font-weight:600;letter-spacing:.04em;text-transform:uppercase;padding:2px 8px;border-radius:999px;background:#fff4d6;color:#8a5a00}
  .badge.live{background:#ffe1e1;color:#a40000}
  h1{font-size:20px;margin:12px 0 4px} .merchant{color:#5b6275;margin:0}
  .amount{font-size:32px;font-weight:700;margin:16px 0 4px} .description{color:#5b6275;margin:0 0 16px}
  label{display:block;font-size:14px;font-weight:600;margin:12px 0 4px}
  input,button{font-family:inherit} input{width:100%;padding:10px 12px;font-size:16px;border:1px solid #c9ced8;border-radius:8px}
  input[aria-invalid=true]{border-color:#c62828} .row{display:flex;gap:12px} .row>div{flex:1}
  .field-error{color:#c62828;font-size:13px;margin:4px 0 0}
  button{width:100%;margin-top:20px;padding:12px;font-size:16px;font-weight:600;border:0;border-radius:8px;background:#3b5bdb;color:#fff;cursor:pointer}
  button.secondary{background:#e9ecf2;color:#1f2430;margin-top:10px}
  .alert{border-radius:8px;padding:12px;margin:16px 0;background:#fdecea;color:#8e1c1c}
  .ok{background:#e6f4ea;color:#1e6b34} .muted{color:#5b6275;font-size:13px}
  details{margin-top:20px;font-size:13px;color:#5b6275} code{font-size:13px}
  table{width:100%;border-collapse:collapse;font-size:13px} td{padding:2px 0}
  .subscription{border:1px solid #c9ced8;border-radius:8px;padding:12px;margin:16px 0;font-size:14px} .subscription p{margin:0 0 4px}
  .receipt{margin:16px 0} .receipt td:first-child{color:#5b6275;width:40%}
`;

/**
 * The headers every hosted page is sent with (`pageRoute` adds them to each of its answers). The pages run no script at
 * all, so `script-src 'self'` only keeps anything injected from running; their one stylesheet is
 * the `<style>` element below, allowed by its hash, and the few `style` attributes (a right-aligned
 * table cell) by `style-src-attr`. No framing (clickjacking a pay button), no `<base>`, no
 * plugins. There is deliberately no `form-action`: Chromium applies it to the redirect that
 * follows a form post too, and a paid checkout redirects to the merchant's `success_url`, on
 * another origin.
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self' 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
    "style-src-attr 'unsafe-inline'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; '),
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/**
 * Declares a hosted page's route: open to anyone (the id in its path is the capability), its HTML
 * (its `notFound` page too) sent with PAGE_HEADERS.
 */
export function pageRoute(route: Omit<OpenRoute, 'auth'>): OpenRoute {
  const { notFound } = route;
  return open({
    ...route,
    ...(notFound ? { notFound: withPageHeaders(notFound) } : {}),
    handle: async (ctx) => withPageHeaders(await route.handle(ctx)),
  });
}

function withPageHeaders(reply: Reply): Reply {
  return reply.html === undefined ? reply : { ...reply, headers: { ...PAGE_HEADERS, ...reply.headers } };
}

/**
 * A hosted page's own path in the namespace it is of: `/~NAME/checkout/...` in a named one (the
 * server routes that prefix to NAME's app), the path itself in the default. Every root-relative
 * form action, link and redirect of the pages goes through it, so that a page of a named
 * namespace posts back to that namespace and not to the default's.
 */
export function pagePath(app: Pick<HttpApp, 'namespace'>, path: string): string {
  return app.namespace === undefined ? path : `/~${app.namespace}${path}`;
}

export function page(title: string, body: Raw, mode?: 'test' | 'live'): string {
  const badge = mode === 'live' ? html`<span class="badge live">Live mode</span>` : html`<span class="badge">Test mode</span>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)} · payemu</title><style>${STYLE}</style></head>
<body><main>${mode ? badge.value : ''}${body.value}</main></body></html>`;
}
