import { InvalidArgumentError } from 'commander';
import t from 'tap';
import { apiKey, connect, namespaceOf } from './client.js';
import { CliError, EXIT } from './errors.js';
import { namespaceName } from './option-values.js';

// The key a connecting command sends: --key / PAYEMU_API_KEY, and --namespace / PAYEMU_NAMESPACE
// as its ~NAME suffix (the flag wins); what is refused before any request.
const KEY = 'sk_test_payemu_acme';

/** Runs `fn` with these PAYEMU_ variables only (the rest unset), then puts the environment back. */
function withEnv<T>(vars: Record<string, string>, fn: () => T): T {
  const names = ['PAYEMU_URL', 'PAYEMU_API_KEY', 'PAYEMU_NAMESPACE'];
  const saved = names.map((name) => process.env[name]);
  for (const name of names) delete process.env[name];
  Object.assign(process.env, vars);
  try {
    return fn();
  } finally {
    for (const [i, name] of names.entries()) {
      if (saved[i] === undefined) delete process.env[name];
      else process.env[name] = saved[i];
    }
  }
}

t.test('the suffix: from the flag, from the environment, the flag winning, none', async (t) => {
  withEnv({}, () => {
    t.equal(apiKey({}), KEY);
    t.equal(apiKey({ namespace: 'w3' }), `${KEY}~w3`);
    t.equal(apiKey({ key: 'sk_live_x', namespace: 'w3' }), 'sk_live_x~w3');
    t.equal(apiKey({ key: `${KEY}~w9` }), `${KEY}~w9`, 'a suffix alone is sent as it is');
    t.equal(namespaceOf({}), undefined);
  });
  withEnv({ PAYEMU_NAMESPACE: 'env-1', PAYEMU_API_KEY: 'sk_test_b' }, () => {
    t.equal(apiKey({}), 'sk_test_b~env-1');
    t.equal(apiKey({ namespace: 'flag' }), 'sk_test_b~flag', 'the flag wins');
    t.equal(namespaceOf({}), 'env-1');
  });
});

t.test('refused before any request, as usage errors', async (t) => {
  const usage = (message: RegExp) => ({ constructor: CliError, exitCode: EXIT.usage, message });
  withEnv({ PAYEMU_NAMESPACE: 'W 3' }, () => {
    t.throws(() => namespaceOf({}), usage(/^PAYEMU_NAMESPACE: not a namespace name: "W 3" \(a namespace name is 1 to 32 characters/));
    t.throws(() => connect({ url: 'http://127.0.0.1:9' }), usage(/PAYEMU_NAMESPACE/));
    t.equal(connect({ url: 'http://127.0.0.1:9' }, { namespaced: false }).url, 'http://127.0.0.1:9', 'the namespaces commands do not read it');
  });
  withEnv({ PAYEMU_NAMESPACE: '' }, () => t.throws(() => namespaceOf({}), usage(/not a namespace name: ""/)));
  withEnv({ PAYEMU_API_KEY: `${KEY}~a` }, () => {
    t.throws(() => apiKey({ namespace: 'a' }), usage(/^PAYEMU_API_KEY names namespace "a" already \(its ~a suffix\) and --namespace names "a"/));
  });
  withEnv({ PAYEMU_NAMESPACE: 'b' }, () => {
    t.throws(() => apiKey({ key: `${KEY}~a` }), usage(/^--key names namespace "a" already .* and PAYEMU_NAMESPACE names "b"/));
  });
});

t.test('--namespace is judged as the command line is read', async (t) => {
  t.equal(namespaceName('w_1-a'), 'w_1-a');
  t.equal(namespaceName('x'.repeat(32)), 'x'.repeat(32));
  for (const bad of ['', 'W1', 'a~b', 'a.b', 'x'.repeat(33)])
    t.throws(
      () => namespaceName(bad),
      { constructor: InvalidArgumentError, message: /must be a namespace name: 1 to 32 characters of a-z, 0-9, _ and -/ },
      bad,
    );
});
