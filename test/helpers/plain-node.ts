/**
 * `node ...args` as a command and its arguments for `spawn`, without tap's coverage hooks. tap
 * hands its hooks to every process a test starts (NODE_OPTIONS, put back by its own wrapper of
 * child_process whatever the env says; `env -u` takes them off). In a process that runs the
 * build (bin/payemu.js, dist/) they measure nothing that counts: dist/ has no source maps, and
 * coverage counts src/ only (test/helpers/coverage-map.js). They cost each start a loader
 * thread, about half of a short command's CPU time, over the few hundred the suite starts.
 * `env` execs node: the pid is node's, and signals reach it.
 */
export function nodeWithoutCoverage(args: readonly string[]): [command: string, args: string[]] {
  return withoutCoverage(process.execPath, args);
}

/**
 * Any command (a shell, tmux, a test runner) as `spawn`'s command and arguments, without tap's
 * hooks in it or in the node processes it starts. Setting `NODE_OPTIONS: ''` in `spawn`'s env is
 * not enough: tap's wrapper puts its hooks back (a `payemu` command of a docs page cost 0.23 s of
 * CPU with them, 0.10 s without).
 */
export function withoutCoverage(command: string, args: readonly string[]): [command: string, args: string[]] {
  return ['/usr/bin/env', ['-u', 'NODE_OPTIONS', command, ...args]];
}
