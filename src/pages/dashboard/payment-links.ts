import type { OpenContext } from '../../http/route.js';
import { PaymentLinks, isUsable, linkKind, linkPrice } from '../../resources/payment-links/records.js';
import { html, pagePath } from '../html.js';
import { money, when } from './format.js';
import { badge } from './badges.js';
import { num, shell, table } from './layout.js';
import { newestFirst, scopeFromQuery } from './scope.js';

/** Payment links, newest first: price, kind, uses, expiry, and whether they can still be paid. */
export function paymentLinksPage(ctx: OpenContext) {
  const scope = scopeFromQuery(ctx);
  const rows = newestFirst(ctx.app, scope, PaymentLinks).map(
    (
      l,
    ) => html`<tr><td><a href="${pagePath(scope, `/pay/${encodeURIComponent(l.id)}`)}">${l.title}</a></td><td><a class="id" href="${pagePath(scope, `/pay/${encodeURIComponent(l.id)}`)}">${l.id}</a></td><td class="num">${money(linkPrice(l), l.currency)}</td>
        <td>${linkKind(l).replace('_', ' ')}${l.recurring ? ` (${l.recurring.frequency})` : ''}</td><td class="num">${l.uses_count}${l.max_uses === null ? '' : ` of ${l.max_uses}`}</td>
        <td>${when(l.expires_at)}</td><td data-testid="status">${badge(isUsable(l, ctx.now) ? 'usable' : 'closed')}</td></tr>`,
  );
  const body = html`<h1>Payment links</h1>${table('payment-links', 'Payment links', ['Title', 'Id', num('Price'), 'Kind', num('Uses'), 'Expires', 'State'], rows, 'No payment links.')}`;
  return shell(ctx.app, scope, 'Payment links', '/payment-links', body);
}
