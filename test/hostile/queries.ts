import { API_ROUTES, auth, pct, pick, VALID, type Add, type Fixture } from './cases.js';

/** Bad list, event-log and include queries. */
export function queryCases(add: Add, fx: Fixture): void {
  // 5. List queries: bad page, sort, filter and fields (422) on the payment and schedule lists,
  //    and bad event-log queries.
  const badListParams = [
    'page[size]=0',
    'page[size]=101',
    'page[size]=-1',
    'page[size]=1.5',
    'page[size]=abc',
    'page[size]=',
    'page[size]=1e2',
    'page[size]=NaN',
    'page[size]=99999999999999999999',
    'page[size]=%EF%BC%91',
    'page[size]=1&page[size]=2',
    'page[number]=0',
    'page[number]=-5',
    'page[number]=x',
    'page[number]=1e400',
    'page[foo]=1',
    'page=1',
    'sort=foo',
    'sort=-',
    'sort=',
    'sort=amount,bogus',
    'sort=--amount',
    'sort=amount&sort=status',
    'sort=__proto__',
    'sort=constructor',
    'sort=toString',
    'sort=hasOwnProperty',
    'sort=-valueOf',
    'filter[bogus]=1',
    'filter=x',
    'filter[status]=NOPE',
    'filter[status]=PA%C3%8FD',
    'filter[created_after]=not-a-date',
    'filter[created_after]=2026-02-30',
    'filter[created_before]=2026-13-01',
    'filter[created_after]=%00',
    'filter[__proto__]=2026-01-01',
    'filter[constructor]=2026-01-01',
    'filter[toString]=x',
    'filter[hasOwnProperty]=1',
    'fields[payments]=nope',
    'fields[payments]=reference,__proto__',
    'fields[payments]=constructor',
    'fields[other]=reference',
    'fields=reference',
    'filter[status]=PAID&filter[status]=FAILED',
  ];
  const pollution = ['', '&__proto__[polluted]=1', '&constructor[prototype][polluted]=1', '&__proto__.polluted=1', '&%5F%5Fproto%5F%5F=1'];
  for (const list of ['/v1/payments', '/v1/recurring-payments']) {
    if (!API_ROUTES.some((r) => r.method === 'GET' && r.path === list)) continue;
    for (const params of badListParams) {
      // `filter[status]` values are a payment's; on schedules only the list grammar is common.
      if (list !== '/v1/payments' && /filter|fields\[payments\]/.test(params)) continue;
      for (const key of [VALID, 'sk_live_payemu_acme']) {
        add({ name: `query: GET ${list}?${params}`, method: 'GET', target: `${list}?${params}${pick(pollution)}`, headers: [auth(key)], expect: 422 });
      }
    }
  }
  for (const params of [
    'limit=0',
    'limit=1001',
    'limit=abc',
    'limit=-1',
    'limit=1.5',
    'event=payment.nope',
    'event=__proto__',
    'delivery_status=lost',
    'limit=1&limit=2',
  ]) {
    add({ name: `query: GET /_payemu/events?${params}`, method: 'GET', target: `/_payemu/events?${params}`, headers: [auth()], expect: 422 });
  }
  // An include path the resource does not have is a 400 (JSON:API).
  for (const params of ['include=nope', 'include=refunds,nope', 'include=__proto__', 'include=', 'include=refunds&include=refunds']) {
    add({ name: `query: GET payment?${params}`, method: 'GET', target: `/v1/payments/${pct(fx.paidReference)}?${params}`, headers: [auth()], expect: 400 });
  }
}
