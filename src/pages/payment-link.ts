import type { Reply } from '../http/envelope.js';
import type { OpenContext } from '../http/route.js';
import { formatMinor } from '../lib/money.js';
import { isUsable, PaymentLinks, type PaymentLinkRecord } from '../resources/payment-links/records.js';
import { linkTotal } from '../resources/payment-links/service.js';
import { openCheckout } from '../resources/sessions/from-link.js';
import { checkoutUrl } from '../resources/sessions/present.js';
import { redirect } from './card-form.js';
import { html, page, pagePath } from './html.js';
import { recordPages } from './record-pages.js';
import { everyText, subscriptionTerms } from './subscription.js';

const pages = recordPages<PaymentLinkRecord>({
  find: (ctx) => {
    const link = /^\d+$/.test(ctx.params.id!) ? ctx.app.store.get(PaymentLinks, String(Number(ctx.params.id))) : undefined;
    return link && scopeOf(ctx, link).source ? link : undefined;
  },
  notFound: { heading: 'Link not found', text: 'There is no payment link at this address.' },
  instead: (ctx, link) =>
    isUsable(link, ctx.now)
      ? undefined
      : {
          status: 410,
          html: page(link.title, html`<h1>${link.title}</h1><p class="alert" role="alert">This payment link is no longer available.</p>`, link.mode),
        },
});

/** A link's `links.pay`: what it sells, and a button that opens a checkout for it. */
export const paymentLinkPages = [
  pages.get('/pay/:id', show),
  pages.button('/pay/:id', (ctx, link) => {
    const session = ctx.app.store.transaction((tx) => openCheckout(tx, scopeOf(ctx, link), link, ctx.now));
    return redirect(checkoutUrl(ctx.app.baseUrl(), session));
  }),
];

const scopeOf = (ctx: OpenContext, link: PaymentLinkRecord) => ({ source: ctx.app.config().sources.find((s) => s.slug === link.source)!, mode: link.mode });

function show(ctx: OpenContext, link: PaymentLinkRecord): Reply {
  const scope = scopeOf(ctx, link);
  const total = linkTotal(link, scope);
  const money = `${formatMinor(total)} ${link.currency}`;
  const every = link.recurring ? ` ${everyText(link.recurring.frequency, link.recurring.interval_count ?? 1)}` : '';
  const body = html`
    <h1>${link.title}</h1>
    <p class="merchant">${scope.source.name}</p>
    ${link.description ? html`<p class="description">${link.description}</p>` : ''}
    ${
      link.products.length > 0
        ? html`<table>${link.products.map((p) => html`<tr><td>${p.name} × ${p.quantity}</td><td style="text-align:right">${formatMinor(p.unit_price * p.quantity)} ${link.currency}</td></tr>`)}</table>`
        : ''
    }
    <p class="amount" data-testid="amount">${money}${every}</p>
    ${link.taxable && total !== (link.amount ?? total) ? html`<p class="muted">Including ${scope.source.tax.name}.</p>` : ''}
    ${link.recurring ? subscriptionTerms(link.recurring, money, ctx.now) : ''}
    <form method="post" action="${pagePath(ctx.app, `/pay/${link.id}`)}"><button type="submit">Continue to payment</button></form>`;
  return { status: 200, html: page(link.title, body, link.mode) };
}
