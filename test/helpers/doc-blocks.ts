import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Test } from 'tap';
import { BIN } from './cli.js';
import { withoutCoverage } from './plain-node.js';

/** A fenced code block of a Markdown file: its info string's language, its text, its first line. */
export interface CodeBlock {
  lang: string;
  text: string;
  line: number;
}

/** The fenced code blocks of `file` (a path or URL), in order. */
export function codeBlocks(file: string | URL): CodeBlock[] {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(```+|~~~+)\s*(\S*)/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[1]!;
    const body: string[] = [];
    let j = i + 1;
    // A closing fence is the fence alone (CommonMark): text after it would leave the block open.
    const closes = (line: string) => line.startsWith(fence) && /^(`+|~+)\s*$/.test(line);
    for (; j < lines.length && !closes(lines[j]!); j++) body.push(lines[j]!);
    blocks.push({ lang: open[2] ?? '', text: `${body.join('\n')}\n`, line: i + 1 });
    i = j;
  }
  return blocks;
}

/**
 * The shell commands of a block: one per line, `\` continuations joined, comments and blank
 * lines left out.
 */
export function shellCommands(block: CodeBlock): string[] {
  return block.text
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** A short checksum of a block's text: a test that cannot run a block still fails when it changes. */
export function fingerprint(block: CodeBlock): string {
  return crypto.createHash('sha256').update(block.text).digest('hex').slice(0, 12);
}

/**
 * A port free now, for a server the page starts (the reader's app on its `PORT`) or a webhook
 * URL: no fixed ports in tests. Taken at random below the range the system hands out for port 0
 * (ip_local_port_range), and tried: a port from that range, let go, was soon given again to the
 * next server listening on port 0 (payemu's own, under `payemu exec`), and the app then found
 * it taken.
 */
export async function freePort(): Promise<number> {
  const [low, high] = localPortRange();
  // Below the range when there is room, else above it.
  const [from, to] = low - 10_000 >= 1_000 ? [10_000, low - 1] : [high + 1, 65_535];
  for (;;) {
    const port = from + Math.floor(Math.random() * (to - from + 1));
    if (await canListen(port)) return port;
  }
}

function localPortRange(): [number, number] {
  try {
    const [low, high] = fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (Number.isInteger(low) && Number.isInteger(high)) return [low!, high!];
  } catch {
    // Not Linux: the range most systems use.
  }
  return [49_152, 65_535];
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

export interface ShellRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs one shell command of a page through `sh -c` in `cwd`, with `npx payemu` (and `payemu`)
 * being this checkout's binary (the folder's node_modules/.bin comes first on PATH). Without
 * tap's coverage hooks: they are not the reader's.
 */
export function sh(command: string, cwd: string, env: NodeJS.ProcessEnv = {}): ShellRun {
  const bin = path.join(cwd, 'node_modules/.bin');
  const run = spawnSync(...withoutCoverage('sh', ['-c', command]), {
    cwd,
    env: { ...process.env, NO_COLOR: '1', ...env, PATH: `${bin}:${process.env.PATH}` },
    encoding: 'utf8',
    timeout: 90_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** The same, without blocking the event loop (for a command that talks to a server of this process). */
export function shAsync(command: string, cwd: string, env: NodeJS.ProcessEnv = {}): Promise<ShellRun> {
  const bin = path.join(cwd, 'node_modules/.bin');
  const child = spawn(...withoutCoverage('sh', ['-c', command]), {
    cwd,
    env: { ...process.env, NO_COLOR: '1', ...env, PATH: `${bin}:${process.env.PATH}` },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/** This checkout's root folder. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * A reader's project folder in a test dir: `package.json` (with `scripts`, if given), and payemu
 * in node_modules linked to this checkout (with its `.bin/payemu`), as `npm install --save-dev
 * payemu` leaves it. (.ci/check-pack installs the packed tarball instead.)
 */
export function project(t: Test, files: Record<string, string | Record<string, string>> = {}, scripts: Record<string, string> = {}): string {
  const dir = t.testdir({
    'package.json': JSON.stringify({ name: 'shop', private: true, type: 'module', scripts }),
    ...files,
  });
  return linkPayemu(dir);
}

/**
 * Installs payemu in `dir` as npm would, linked to this checkout: node_modules/payemu and
 * .bin/payemu. With an `npx` in .bin (first on the PATH of a page's commands) that does what npx
 * does for a package installed here, run its bin, without npm's own start: 0.4 s of CPU for each
 * of the pages' hundreds of `npx payemu` commands. Any other package goes to the real npx. The real
 * npx in front of payemu is run by test/orphan.test.ts (signals through it) and .ci/check-pack.
 */
export function linkPayemu(dir: string): string {
  const bin = path.join(dir, 'node_modules/.bin');
  fs.mkdirSync(bin, { recursive: true });
  fs.symlinkSync(ROOT, path.join(dir, 'node_modules/payemu'));
  fs.symlinkSync(BIN, path.join(bin, 'payemu'));
  fs.writeFileSync(path.join(bin, 'npx'), npxShim(), { mode: 0o755 });
  return dir;
}

/** The real npx, found once on this process's PATH. */
let realNpx: string | undefined;

function npxShim(): string {
  realNpx ??= spawnSync('sh', ['-c', 'command -v npx'], { encoding: 'utf8' }).stdout.trim() || 'npx';
  return [
    '#!/bin/sh',
    '# npx of the payemu installed here runs its bin, as npx does; anything else goes to npx.',
    'case "$1" in --no|--yes|-y) skip=1 ;; *) skip=0 ;; esac',
    'if [ "$skip" = 1 ] && [ "$2" = payemu ]; then shift 2; exec "$(dirname "$0")/payemu" "$@"; fi',
    'if [ "$skip" = 1 ] && [ "$2" = -- ] && [ "$3" = payemu ]; then shift 3; exec "$(dirname "$0")/payemu" "$@"; fi',
    'if [ "$1" = -- ] && [ "$2" = payemu ]; then shift 2; exec "$(dirname "$0")/payemu" "$@"; fi',
    'if [ "$1" = payemu ]; then shift; exec "$(dirname "$0")/payemu" "$@"; fi',
    `exec ${JSON.stringify(realNpx)} "$@"`,
    '',
  ].join('\n');
}
