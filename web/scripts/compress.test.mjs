// @vitest-environment node
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compressDir } from './compress.mjs';

describe('compress.mjs', () => {
  let dir = '';

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'compress-test-'));
    await mkdir(join(dir, 'assets'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes .gz and .br next to text files larger than 1 KB, and nothing else', async () => {
    const big = 'console.log("agentic");\n'.repeat(100);
    await writeFile(join(dir, 'assets', 'app.js'), big);
    await writeFile(join(dir, 'index.html'), `<html>${'<p>x</p>'.repeat(300)}</html>`);
    await writeFile(join(dir, 'assets', 'tiny.css'), 'a{}');
    await writeFile(join(dir, 'assets', 'image.png'), Buffer.alloc(4096, 1));
    await mkdir(join(dir, 'server'));
    await writeFile(join(dir, 'server', 'render.js'), big);

    const done = await compressDir(dir);

    expect(done.map((f) => f.file).sort()).toEqual(['assets/app.js', 'index.html']);
    const gz = await readFile(join(dir, 'assets', 'app.js.gz'));
    const br = await readFile(join(dir, 'assets', 'app.js.br'));
    expect(gunzipSync(gz).toString()).toBe(big);
    expect(brotliDecompressSync(br).toString()).toBe(big);
    expect(existsSync(join(dir, 'index.html.br'))).toBe(true);
    expect(existsSync(join(dir, 'assets', 'tiny.css.gz'))).toBe(false);
    expect(existsSync(join(dir, 'assets', 'image.png.gz'))).toBe(false);
    expect(existsSync(join(dir, 'server', 'render.js.gz'))).toBe(false);
  });

  it('does not compress its own output again', async () => {
    await writeFile(join(dir, 'app.js'), 'x'.repeat(5000));
    await compressDir(dir);
    const again = await compressDir(dir);
    expect(again.map((f) => f.file)).toEqual(['app.js']);
    expect(existsSync(join(dir, 'app.js.gz.gz'))).toBe(false);
  });
});
