// Debian packages a bench part needs (FreeTDS's headers for the native client, Chromium for the panel), installed when
// missing as scripts/e2e-setup.sh installs its own: as root, or through sudo without a password prompt.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';

/** Installs `pkg` unless `file` exists; null when `file` is there after, else why not. */
export function ensureDebianPackage(pkg: string, file: string, log: (s: string) => void): string | null {
  if (fs.existsSync(file)) return null;
  log(`bench: ${file} is missing: apt-get install -y ${pkg}`);
  const asRoot = process.getuid?.() === 0;
  const apt = (args: string[]) =>
    spawnSync(asRoot ? 'apt-get' : 'sudo', asRoot ? args : ['-n', 'apt-get', ...args], {
      encoding: 'utf8',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      timeout: 600_000,
    });
  apt(['update', '-qq']);
  const r = apt(['install', '-y', '-qq', pkg]);
  if (fs.existsSync(file)) return null;
  return `${pkg} is not installed and could not be installed: ${(r.stderr || r.error?.message || '').trim().split('\n').pop()}`;
}
