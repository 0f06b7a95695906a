import t from 'tap';
import { cardNumberProblem, checkCardDetails, detectBrand, evaluateCard, group, luhnValid, parseCardNumber, TEST_CARDS } from './test-cards.js';

t.test('every test card is Luhn-valid and has a brand', async (t) => {
  for (const card of TEST_CARDS) {
    t.ok(luhnValid(card.number), card.number);
    t.ok(detectBrand(card.number), card.number);
  }
});

t.test('brands by prefix', async (t) => {
  t.equal(detectBrand('4242424242424242'), 'visa');
  t.equal(detectBrand('5555555555554444'), 'mastercard');
  t.equal(detectBrand('2221000000000009'), 'mastercard');
  t.equal(detectBrand('378282246310005'), 'amex');
  t.equal(detectBrand('6011111111111117'), null);
});

t.test('outcomes in test and live mode', async (t) => {
  t.match(evaluateCard('4242 4242 4242 4242', 'test'), { outcome: 'approve', brand: 'visa', last4: '4242' });
  t.match(evaluateCard('4000-0000-0000-0002', 'test'), { outcome: 'decline', code: 'insufficient_funds' });
  t.match(evaluateCard('4000002760003184', 'test'), { outcome: 'three_ds' });
  t.match(evaluateCard('4000000000000341', 'test'), { outcome: 'approve', declineOffSession: true });
  t.match(evaluateCard('4012888888881881', 'test'), { outcome: 'decline', code: 'card_not_supported' });
  t.match(evaluateCard('4242424242424242', 'live'), { outcome: 'decline', code: 'card_declined', message: 'A test card was used in live mode.' });
  t.match(evaluateCard('4012888888881881', 'live'), { outcome: 'approve', brand: 'visa' });
  t.match(evaluateCard('6011111111111117', 'live'), { outcome: 'decline', code: 'card_not_supported' });
});

t.test('a number that fails the Luhn check or has fewer than 12 digits is no card: a 422 on card_number, in both modes', async (t) => {
  for (const typo of ['4242 4242 4242 4241', '4000-0000-0000-0003', '3782 822463 10006', '4012888888881882', '4242 4242 42', '4242424242424242424242', '']) {
    t.ok(cardNumberProblem(typo), `${typo}: a problem`);
    for (const mode of ['test', 'live'] as const) {
      let thrown: unknown;
      try {
        evaluateCard(typo, mode);
      } catch (error) {
        thrown = error;
      }
      t.match(thrown, { status: 422, meta: { errors: { card_number: [cardNumberProblem(typo)] } } }, `${typo} in ${mode} mode: a 422 on card_number`);
    }
  }
  t.match(cardNumberProblem('4242 4242 4242 4241'), /not valid/);
  t.match(cardNumberProblem('4242 4242 42'), /12 to 19 digits/);
  t.equal(parseCardNumber('3782 822463 10005'), '378282246310005');
  for (const card of TEST_CARDS) t.equal(cardNumberProblem(card.number), undefined, `${card.number} passes`);
});

t.test('the hosted form checks expiry and CVC', async (t) => {
  const now = Date.parse('2026-11-22T00:00:00Z');
  t.same(checkCardDetails('4242424242424242', { month: 11, year: 2026 }, '123', now), {});
  t.ok(checkCardDetails('4242424242424242', { month: 10, year: 2026 }, '123', now).expiry);
  t.ok(checkCardDetails('4242424242424242', { month: 13, year: 2030 }, '123', now).expiry);
  t.ok(checkCardDetails('4242424242424242', { month: 1, year: 2030 }, '12', now).cvc);
  t.ok(checkCardDetails('378282246310005', { month: 1, year: 2030 }, '123', now).cvc, 'amex needs 4 digits');
  t.ok(checkCardDetails('42', { month: 1, year: 2030 }, '123', now).card_number);
  t.match(checkCardDetails('4242 4242 4242 4241', { month: 1, year: 2030 }, '123', now), { card_number: /not valid/ });
});

t.test('grouping for display', async (t) => {
  t.equal(group('4242424242424242'), '4242 4242 4242 4242');
  t.equal(group('378282246310005'), '3782 822463 10005');
});
