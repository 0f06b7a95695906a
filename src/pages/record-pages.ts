import { readForm } from '../http/body.js';
import type { Reply } from '../http/envelope.js';
import type { OpenContext, OpenRoute } from '../http/route.js';
import { html, page, pageRoute } from './html.js';

type Answer = Reply | Promise<Reply>;

/** The record a page file's paths name, and the answers given without rendering its pages. */
export interface RecordPageSpec<T> {
  /** The record the path names; undefined answers the 404 page. */
  find: (ctx: OpenContext) => T | undefined;
  /** The 404 page's heading and sentence, answered under `/~NAME/` too when there is no namespace NAME. */
  notFound: { heading: string; text: string };
  /** What every path answers instead of its own page (an expired session's 410, a paid checkout's receipt), or undefined. */
  instead?: (ctx: OpenContext, record: T) => Answer | undefined;
}

/**
 * The routes of a page file, each over the record its path names (`spec`):
 * `get` and `post` render it; `button` is a form post that carries nothing (cancel, pay with a
 * link): its form is read and dropped first, and it answers, usually with a redirect
 * (Post/Redirect/Get: a reload shows the page again without posting).
 */
export function recordPages<T>({ find, notFound: missing, instead }: RecordPageSpec<T>) {
  const notFound: Reply = { status: 404, html: page('Not found', html`<h1>${missing.heading}</h1><p>${missing.text}</p>`) };
  const route = (method: 'GET' | 'POST', path: string, render: (ctx: OpenContext, record: T) => Answer): OpenRoute =>
    pageRoute({
      method,
      path,
      notFound,
      handle: (ctx) => {
        const record = find(ctx);
        if (record === undefined) return notFound;
        return instead?.(ctx, record) ?? render(ctx, record);
      },
    });
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
