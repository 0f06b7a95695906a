import { readForm } from '../http/body.js';
import type { Reply } from '../http/envelope.js';
import type { OpenContext, OpenRoute } from '../http/route.js';
import { pageRoute } from './html.js';

type Answer = Reply | Promise<Reply>;

/**
 * Finds the record a page's path names and renders it, or answers without it (the 404 page, an
 * expired session's 410): each page file has one.
 */
export type PageLoader<T> = (ctx: OpenContext, render: (record: T) => Answer) => Answer;

/**
 * The routes of a page file, each over the record its path names (`load`), and `notFound`, the
 * 404 page its loader answers for an unknown id, answered under `/~NAME/` too when there is no
 * namespace NAME:
 * `get` and `post` render it; `button` is a form post that carries nothing (cancel, pay with a
 * link): its form is read and dropped first, and it answers, usually with a redirect
 * (Post/Redirect/Get: a reload shows the page again without posting).
 */
export function recordPages<T>(load: PageLoader<T>, notFound: Reply) {
  const route = (method: 'GET' | 'POST', path: string, render: (ctx: OpenContext, record: T) => Answer): OpenRoute =>
    pageRoute({ method, path, notFound, handle: (ctx) => load(ctx, (record) => render(ctx, record)) });
  return {
    get: (path: string, render: (ctx: OpenContext, record: T) => Answer) => route('GET', path, render),
    post: (path: string, render: (ctx: OpenContext, record: T) => Answer) => route('POST', path, render),
    button: (path: string, act: (ctx: OpenContext, record: T) => Answer) =>
      route('POST', path, async (ctx, record) => {
        await readForm(ctx.req);
        return act(ctx, record);
      }),
  };
}
