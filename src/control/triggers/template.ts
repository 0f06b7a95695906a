/**
 * The placeholders of trigger fixtures: `"{{amount}}"` is replaced by the value (keeping its
 * type), `"/v1/payments/{{session.data.attributes.reference}}"` interpolates it as text. A path
 * reads variables and earlier steps' answers; `{{a|b}}` takes the first that is not null. A
 * body field whose whole value comes out null or undefined is left out, so the API's default
 * applies.
 */
const WHOLE = /^\{\{([^{}]+)\}\}$/;
const PART = /\{\{([^{}]+)\}\}/g;

export function render(value: unknown, vars: Record<string, unknown>): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    if (whole) return lookup(whole[1]!, vars);
    return value.replace(PART, (_, path: string) => {
      const found = lookup(path, vars);
      if (found === undefined || found === null) throw new Error(`the placeholder {{${path}}} has no value`);
      return encodeURIComponent(String(found));
    });
  }
  if (Array.isArray(value)) return value.map((item) => render(item, vars));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const rendered = render(item, vars);
      if (rendered !== undefined && rendered !== null) out[key] = rendered;
    }
    return out;
  }
  return value;
}

function lookup(expression: string, vars: Record<string, unknown>): unknown {
  for (const path of expression.split('|')) {
    let current: unknown = vars;
    for (const part of path.trim().split('.')) {
      if (current === null || typeof current !== 'object' || !Object.hasOwn(current, part)) {
        current = undefined;
        break;
      }
      current = (current as Record<string, unknown>)[part];
    }
    if (current !== undefined && current !== null) return current;
  }
  return undefined;
}

/** `--set metadata.order=42` -> `{metadata: {order: 42}}`; values that parse as JSON keep their type. */
export function parseSet(assignments: readonly string[]): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const assignment of assignments) {
    const eq = assignment.indexOf('=');
    if (eq <= 0) throw new Error(`--set takes key=value, got "${assignment}"`);
    const path = assignment.slice(0, eq).split('.');
    const text = assignment.slice(eq + 1);
    let value: unknown = text;
    try {
      value = JSON.parse(text);
    } catch {
      /* a plain string */
    }
    let target = data;
    for (const key of path.slice(0, -1)) {
      if (key === '__proto__' || key === 'constructor' || key === 'prototype') throw new Error(`--set: "${key}" is not a field`);
      target = (target[key] ??= {}) as Record<string, unknown>;
    }
    const last = path.at(-1)!;
    if (last === '__proto__' || last === 'constructor' || last === 'prototype') throw new Error(`--set: "${last}" is not a field`);
    target[last] = value;
  }
  return data;
}
