import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const webDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const READY_TIMEOUT_MS = 30_000;

/** Asks the OS for a free TCP port on the loopback interface. */
function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        server.close();
        reject(new Error('could not read the port of a probe socket'));
        return;
      }
      const { port } = address;
      server.close(() => resolvePort(port));
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

async function waitUntilReady(baseURL: string, child: ChildProcess, logFile: string) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let lastError = 'no answer yet';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const log = await readFile(logFile, 'utf8').catch(() => '');
      throw new Error(
        `tribe exited early (code ${child.exitCode}, signal ${child.signalCode}).\n${log.slice(-4000)}`,
      );
    }
    try {
      const res = await fetch(`${baseURL}/readyz`, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) return;
      lastError = `GET /readyz answered ${res.status}`;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
    await sleep(200);
  }
  const log = await readFile(logFile, 'utf8').catch(() => '');
  throw new Error(
    `tribe was not ready within ${READY_TIMEOUT_MS / 1000} s (${lastError}).\n${log.slice(-4000)}`,
  );
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const timedOut = await Promise.race([exited.then(() => false), sleep(10_000).then(() => true)]);
  if (timedOut) {
    child.kill('SIGKILL');
    await exited;
  }
}

/**
 * Starts `tribe serve` on a free loopback port with a fresh data directory and waits for
 * /readyz. The base URL is handed to the workers through E2E_BASE_URL. Returns the teardown.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  if (process.env.E2E_BASE_URL) {
    // Testing a server someone else started.
    return async () => {};
  }

  const bin = resolve(webDir, process.env.TRIBE_BIN || '../bin/tribe');
  if (!existsSync(bin)) {
    throw new Error(
      `tribe binary not found at ${bin}. Build it with \`make build\` in the repository root, ` +
        'set TRIBE_BIN, or set E2E_BASE_URL to test a running server.',
    );
  }

  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'tribe-e2e-'));
  const logDir = join(webDir, 'test-results');
  await mkdir(logDir, { recursive: true });
  const logFile = join(logDir, 'tribe-server.log');
  const log = createWriteStream(logFile);

  const child = spawn(bin, ['serve'], {
    env: {
      ...process.env,
      TRIBE_ADDR: `127.0.0.1:${port}`,
      TRIBE_DATA_DIR: dataDir,
      TRIBE_BASE_URL: `http://127.0.0.1:${port}`,
      // The members-area tests sign this address up and confirm it through the dev mailbox.
      TRIBE_ADMIN_EMAILS: 'admin@example.test',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);

  const baseURL = `http://127.0.0.1:${port}`;
  try {
    await waitUntilReady(baseURL, child, logFile);
  } catch (error) {
    await stop(child);
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  process.env.E2E_BASE_URL = baseURL;

  return async () => {
    await stop(child);
    log.end();
    await rm(dataDir, { recursive: true, force: true });
  };
}
