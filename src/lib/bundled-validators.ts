/**
 * Validators built into the CLI's script, by file name: scripts/build-cli.js fills this table
 * with the config's two, so that their code is compiled with the script and kept in its code
 * cache (a `--config` start compiled 100 KB of them every time). Empty here, and so in the
 * library, which reads every validator from dist/lib/validators/ (lib/precompiled.ts).
 */
export const bundledValidators: Readonly<Record<string, () => unknown>> = {};
