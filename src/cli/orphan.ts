import { Timers } from '../clock/timers.js';

/** How often the parent process is looked at: getppid(2), nothing more. */
const CHECK_MS = 200;

/**
 * Run by a package manager (`npx payemu start`, `npm exec`, an npm script, yarn, pnpm), payemu
 * is a grandchild: npx runs `sh -c payemu ...`, and on SIGTERM npx signals that shell, which
 * dies without passing the signal on. payemu would be left running, holding its port and data
 * directory, with no one to stop it. So, when a package manager started it, payemu watches its
 * parent and, once the parent is gone (the parent pid changes: payemu was handed to init or a
 * subreaper), calls `stop` as SIGTERM would.
 *
 * Run directly (`payemu start &` in a script that then ends, `nohup`), nothing is watched: a
 * process someone deliberately left running in the background keeps running. A payemu whose
 * parent was already gone when it started (`sh -c 'payemu start &'`) is left alone as well.
 */
export function stopWhenOrphaned(stop: (parent: number) => void, env: NodeJS.ProcessEnv = process.env): () => void {
  if (!startedByPackageManager(env)) return () => {};
  const parent = process.ppid;
  // A watch of this process, not work of the emulator: its own Timers, unref'd (the default).
  const watch = new Timers().every(CHECK_MS, () => {
    if (process.ppid === parent) return;
    watch.cancel();
    stop(parent);
  });
  return () => watch.cancel();
}

/** npm, npx, yarn and pnpm set these for what they run. */
export function startedByPackageManager(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.npm_config_user_agent || env.npm_execpath || env.npm_lifecycle_event);
}
