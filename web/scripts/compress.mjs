#!/usr/bin/env node
// Writes .gz and .br siblings for every compressible file in dist/ larger than 1 KB, so the Go
// server can serve pre-compressed assets. Uses node:zlib only.
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export const COMPRESSIBLE = new Set(['.js', '.css', '.html', '.svg', '.json', '.txt', '.xml']);
export const MIN_BYTES = 1024;

async function* walk(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile()) yield path;
  }
}

/** Compresses every eligible file under `root`; returns the list of files compressed. */
export async function compressDir(root) {
  const done = [];
  for await (const file of walk(root)) {
    // server/ holds what the Go server runs and never serves (its start-time renderer).
    if (relative(root, file).split(sep)[0] === 'server') continue;
    if (!COMPRESSIBLE.has(extname(file).toLowerCase())) continue;
    const { size } = await stat(file);
    if (size <= MIN_BYTES) continue;
    const data = await readFile(file);
    const gz = gzipSync(data, { level: 9 });
    const br = brotliCompressSync(data, {
      params: {
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    });
    await writeFile(`${file}.gz`, gz);
    await writeFile(`${file}.br`, br);
    done.push({ file: relative(root, file), size, gz: gz.length, br: br.length });
  }
  return done;
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const root = resolve(
    process.argv[2] ?? join(fileURLToPath(new URL('.', import.meta.url)), '..', 'dist'),
  );
  const done = await compressDir(root);
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  for (const f of done) console.log(`  ${f.file}  ${kb(f.size)} -> gz ${kb(f.gz)}, br ${kb(f.br)}`);
  console.log(`compress: ${done.length} file(s) in ${relative(process.cwd(), root) || '.'}`);
}
