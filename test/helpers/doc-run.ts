import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Test } from 'tap';
import { linkPayemu } from './doc-blocks.js';
import { withoutCoverage } from './plain-node.js';

/**
 * What the tests of docs/*.md share beyond reading the blocks (doc-blocks.ts): a user's project
 * folder with this checkout as its payemu, a shell that runs a page's command there, and the
 * normalizing that lets a page's sample be compared with a real answer.
 */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export function page(name: string): string {
  return path.join(ROOT, 'docs', name);
}

/** A project folder: package.json, and payemu in node_modules (this checkout, its binary in .bin). */
export function project(t: Test, files: Record<string, string> = {}): string {
  const dir = t.testdir({ 'package.json': JSON.stringify({ name: 'shop', private: true, type: 'module' }), ...files });
  return linkPayemu(dir);
}

export interface ShellRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs one command of a page through `sh -c` in `cwd`, `npx payemu` being this checkout's binary.
 * `url`, when given, is where the commands that talk to a running payemu find it (PAYEMU_URL, as
 * `payemu exec` sets it), and replaces the page's http://127.0.0.1:4242 and localhost:4242.
 */
export function sh(command: string, cwd: string, options: { url?: string; env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<ShellRun> {
  const bin = path.join(cwd, 'node_modules/.bin');
  const here = options.url ? command.replace(/http:\/\/(127\.0\.0\.1|localhost):4242/g, options.url) : command;
  // Asynchronous: a page's command often talks to a server in this test's own process.
  const child = spawn(...withoutCoverage('sh', ['-c', here]), {
    cwd,
    env: {
      ...process.env,
      NO_COLOR: '1',
      FORCE_COLOR: undefined,
      ...(options.url ? { PAYEMU_URL: options.url } : {}),
      ...options.env,
      PATH: `${bin}:${process.env.PATH}`,
    },
    timeout: 60_000,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  // A command that reads no input may have ended before it is written: EPIPE, nothing lost.
  child.stdin.on('error', () => {});
  child.stdin.end(options.input ?? '');
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/**
 * The shape of a JSON value: its keys and the types of its values, recursively (an array by the
 * shape of its first element). Two answers that differ only in ids, times and amounts have the
 * same shape.
 */
export function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? [] : [shape(value[0])];
  if (value === null) return 'null';
  if (typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, shape(v)]),
    );
  }
  return typeof value;
}

/** A fragment of a page's JSON sample: the object in the block, parsed (a `...` line is left out). */
export function parseSample(text: string): unknown {
  return JSON.parse(
    text
      .split('\n')
      .filter((line) => line.trim() !== '...')
      .join('\n'),
  );
}

/**
 * The fenced blocks of `file` indented under a list item (codeBlocks reads fences at the start
 * of a line only): their text with the indent taken off.
 */
export function indentedBlocks(file: string): { lang: string; text: string; line: number }[] {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const found: { lang: string; text: string; line: number }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s+)(```+)\s*(\S*)/.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, lang] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !lines[j]!.startsWith(`${indent}${fence}`); j++) body.push(lines[j]!.slice(indent!.length));
    found.push({ lang: lang ?? '', text: `${body.join('\n')}\n`, line: i + 1 });
    i = j;
  }
  return found;
}
