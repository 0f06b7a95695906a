/**
 * A namespace's name, as it follows `~` at the end of an API key (`sk_test_payemu_acme~w3`):
 * 1 to 32 characters of a-z, 0-9, `_` and `-`. One rule for the server, the CLI and the library.
 */
export const NAMESPACE_NAME = /^[a-z0-9_-]{1,32}$/;

/** What a name allows, for the messages that refuse one. */
export const NAMESPACE_NAME_RULE = 'a namespace name is 1 to 32 characters of a-z, 0-9, _ and -';

export function isNamespaceName(name: string): boolean {
  return NAMESPACE_NAME.test(name);
}

/**
 * A key split at its last `~`: the key proper and the namespace name (`undefined` without a
 * suffix: the default namespace). The name is not checked here.
 */
export function splitKey(key: string): { key: string; namespace: string | undefined } {
  const at = key.lastIndexOf('~');
  return at === -1 ? { key, namespace: undefined } : { key: key.slice(0, at), namespace: key.slice(at + 1) };
}

/** The key that selects `namespace` (the key itself for the default namespace). */
export function namespacedKey(key: string, namespace: string | undefined): string {
  return namespace === undefined ? key : `${key}~${namespace}`;
}
