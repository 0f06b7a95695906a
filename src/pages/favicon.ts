import { pageRoute } from './html.js';

/**
 * payemu's mark: a card on an indigo square. The favicon, and the dashboard's logo in its nav bar.
 */
export const LOGO_PATHS = `<rect width="32" height="32" rx="7" fill="#3b5bdb"/><rect x="5" y="8.5" width="22" height="15" rx="2.5" fill="#fff"/><rect x="5" y="11.5" width="22" height="3.2" fill="#141926"/><rect x="8" y="18" width="7" height="2.2" rx="1.1" fill="#3b5bdb"/><circle cx="22.5" cy="19.1" r="1.9" fill="#f59f00"/>`;

const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">${LOGO_PATHS}</svg>`;

/**
 * `/favicon.ico`, where a browser looks for a site's icon by itself (on the hosted pages too), and
 * which the dashboard's pages link: an SVG, which every browser that runs the dashboard reads.
 */
export const faviconPages = [
  pageRoute({
    method: 'GET',
    path: '/favicon.ico',
    handle: (ctx) => {
      ctx.res.writeHead(200, { 'Content-Type': 'image/svg+xml', 'Cache-Control': 'max-age=86400', 'X-Content-Type-Options': 'nosniff' });
      ctx.res.end(FAVICON);
      return { status: 200, streamed: true };
    },
  }),
];
