/**
 * Real Chromium for the checkout tests, with nothing installed by hand: CHROMIUM_PATH, else
 * Debian's chromium; when neither is there and the tests run as root with apt-get (as on CI),
 * Debian's chromium is installed here; otherwise the tests stop with a message saying how to get
 * one.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

const debianPaths = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

function installDebianChromium(): void {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update'], { stdio: 'ignore', env, timeout: 300_000 });
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
    stdio: 'ignore',
    env,
    timeout: 600_000,
  });
}

/** The Chromium binary the tests drive. */
export function chromiumPath(): string {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) {
    if (!existsSync(configured)) throw new Error(`CHROMIUM_PATH=${configured} does not exist`);
    return configured;
  }
  const found = debianPaths.find((path) => existsSync(path));
  if (found) return found;
  const canInstall = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
  if (canInstall) {
    installDebianChromium();
    const installed = debianPaths.find((path) => existsSync(path));
    if (installed) return installed;
  }
  throw new Error(
    "The checkout tests need Chromium: install Debian's package (sudo apt-get install chromium) or set CHROMIUM_PATH to a Chromium or Chrome binary.",
  );
}

/** A headless Chromium; close it when done. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    // Chromium's sandbox refuses to run as root, which CI machines are.
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  });
}
