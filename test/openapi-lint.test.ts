import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { RulesetDefinition } from '@stoplight/spectral-core';
import t, { type Test } from 'tap';
import { EVENT_WIRE, ROUTES } from '../src/catalogue.js';
import { buildOpenApi } from '../src/control/openapi.js';
import { nodeWithoutCoverage } from './helpers/plain-node.js';

/**
 * The OpenAPI document passes two linters' recommended rules with no error: Redocly's
 * `recommended` (redocly.yaml, through its CLI: it has no Node API of its own) and Spectral's
 * `spectral:oas` (through spectral-core, in this process). Each problem is printed (rule, where,
 * message), errors and warnings, so a failure says what to fix. Offline: Redocly's telemetry is
 * off (redocly.yaml and REDOCLY_TELEMETRY), and neither loads a ruleset from elsewhere.
 */
const require = createRequire(import.meta.url);
const ROOT = new URL('..', import.meta.url).pathname;
const doc = buildOpenApi(ROUTES, EVENT_WIRE.webhookPayloads);
const text = `${JSON.stringify(doc, null, 2)}\n`;

interface Problem {
  severity: 'error' | 'warning';
  rule: string;
  where: string;
  message: string;
}

const show = (p: Problem) => `${p.severity} ${p.rule} ${p.where}: ${p.message}`;

function report(t: Test, linter: string, problems: Problem[]) {
  for (const problem of problems) t.comment(`${linter}: ${show(problem)}`);
  const errors = problems.filter((p) => p.severity === 'error');
  t.same(errors.map(show), [], `${linter}: no error (${problems.length - errors.length} warnings)`);
}

t.test("Redocly's recommended rules: no error", async (t) => {
  const file = path.join(t.testdir(), 'openapi.json');
  fs.writeFileSync(file, text);
  const cli = require.resolve('@redocly/cli/bin/cli.js');
  const [command, args] = nodeWithoutCoverage([cli, 'lint', file, '--config', path.join(ROOT, 'redocly.yaml'), '--format=json']);
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
  // It exits 1 when it found an error: the JSON on stdout says which.
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile(command, args, { cwd: ROOT, env, maxBuffer: 64 << 20 }, (error, out, err) =>
      out.trim().startsWith('{') ? resolve(out) : reject(new Error(`redocly lint failed: ${error?.message}\n${err}`)),
    ),
  );
  const result = JSON.parse(stdout) as {
    problems: { ruleId: string; severity: 'error' | 'warn'; message: string; location: { pointer?: string }[] }[];
  };
  report(
    t,
    'redocly',
    result.problems.map((p) => ({
      severity: p.severity === 'error' ? 'error' : 'warning',
      rule: p.ruleId,
      where: p.location[0]?.pointer ?? '',
      message: p.message,
    })),
  );
});

t.test("Spectral's spectral:oas rules: no error", async (t) => {
  const { Spectral, Document } = require('@stoplight/spectral-core') as typeof import('@stoplight/spectral-core');
  const { Json } = require('@stoplight/spectral-parsers') as typeof import('@stoplight/spectral-parsers');
  const { oas } = require('@stoplight/spectral-rulesets') as typeof import('@stoplight/spectral-rulesets');
  const spectral = new Spectral();
  // `spectral:oas` as a .spectral.yaml's `extends: spectral:oas` gives it: its recommended rules.
  spectral.setRuleset({ extends: [[oas as RulesetDefinition, 'recommended']] });
  const results = await spectral.run(new Document(text, Json, 'openapi.json'));
  // Spectral's severities: 0 error, 1 warning, 2 information, 3 hint.
  report(
    t,
    'spectral',
    results.map((r) => ({
      severity: r.severity === 0 ? 'error' : 'warning',
      rule: String(r.code),
      where: `#/${r.path.map((s) => String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`,
      message: r.message,
    })),
  );
});
