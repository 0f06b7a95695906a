import fs from 'node:fs';
import path from 'node:path';
import { checkStore, repairStore, type Checkup, type Finding, type Repair } from '../store/doctor.js';
import { describeDamage, looksLikeDataDir, repairCommand } from '../store/files.js';
import { acquireLock, lockHolder } from '../store/lock.js';
import { CliError, EXIT } from './errors.js';
import { output, type Output } from './output.js';

export interface DoctorOptions {
  data: string;
  repair?: boolean;
  json?: boolean;
}

/**
 * `payemu doctor [--data DIR] [--repair]`: checks a stopped emulator's data directory (exit 0
 * healthy, 1 damaged) and with --repair keeps every readable record, setting each damaged file
 * aside. Wiring and printing only: the store work is in src/store/doctor.ts.
 */
export async function doctor(options: DoctorOptions): Promise<void> {
  const out = output(options);
  const dir = path.resolve(options.data);
  if (!fs.existsSync(dir)) throw new CliError(`${dir} does not exist: nothing to check`, EXIT.usage);
  if (!looksLikeDataDir(dir)) throw new CliError(`${dir} does not look like a payemu data directory (no snapshot.json, no journal-*.ndjson)`, EXIT.usage);
  // The files are read while nothing writes them: not while a payemu runs on them.
  const holder = lockHolder(dir);
  if (holder)
    throw new CliError(
      `${dir} is in use by a running payemu (pid ${holder.pid})${holder.url ? ` at ${holder.url}` : ''}: stop it, then run doctor again`,
      EXIT.refused,
    );

  if (!options.repair) {
    const checkup = await checkStore(dir);
    out.result(checkup, () => report(checkup, out));
    if (!checkup.healthy) process.exitCode = EXIT.refused;
    return;
  }
  let release: () => void;
  try {
    release = acquireLock(dir); // and no payemu starts on it during the repair
  } catch (error) {
    throw new CliError((error as Error).message, EXIT.refused);
  }
  try {
    const repair = await repairStore(dir);
    out.result(repair, () => repaired(repair, out));
  } finally {
    release();
  }
}

function report(checkup: Checkup, out: Output): string {
  const lines = [
    `payemu doctor: ${checkup.dir}`,
    ...checkup.files.map((f) => `  ${f.file}: ${f.records !== undefined ? `${f.records} records` : `${f.lines} readable lines`}`),
  ];
  for (const finding of checkup.damage) lines.push(...describe(out.c.red('damaged:'), finding));
  for (const finding of checkup.notes) lines.push(...describe('note:', finding));
  if (checkup.healthy) lines.push(out.c.green(`healthy: ${checkup.records} records`));
  else {
    const places = checkup.damage.length === 1 ? '1 damaged place' : `${checkup.damage.length} damaged places`;
    lines.push(`${places}; ${checkup.records} records are readable. To keep them and set the damaged files aside, run: ${repairCommand(checkup.dir)}`);
  }
  return lines.join('\n');
}

function repaired(repair: Repair, out: Output): string {
  if (repair.dropped.length === 0) return `${report(repair, out)}\nnothing to repair`;
  const lines = [`payemu doctor --repair: ${repair.dir}`];
  for (const { file, backup } of repair.backups) lines.push(`  set aside: ${file} -> ${backup} (${file} now holds what could be read of it)`);
  for (const finding of repair.dropped) lines.push(...describe(out.c.yellow('dropped:'), finding));
  for (const finding of repair.notes) lines.push(...describe('note:', finding));
  lines.push(
    out.c.green(`repaired: ${repair.records} records kept, ${repair.dropped.length} damaged ${repair.dropped.length === 1 ? 'place' : 'places'} dropped`),
  );
  return lines.join('\n');
}

function describe(label: string, finding: Finding): string[] {
  return [`${label} ${describeDamage(finding)}`, ...(finding.excerpt !== undefined ? [`  it starts: ${JSON.stringify(finding.excerpt)}`] : [])];
}
