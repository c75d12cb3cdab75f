/**
 * `npm run build` step: bundle the dashboard's browser code and styles with esbuild (minified,
 * content-hashed names) into dist/dashboard/assets and write manifest.json for the server.
 * Prints the gzip size of what a browser downloads.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import { ASSET_DIR } from './assets.js'

const SRC = fileURLToPath(new URL('../../src/dashboard/browser/', import.meta.url))

export async function buildAssets(outdir = ASSET_DIR): Promise<Record<string, string>> {
  rmSync(outdir, { recursive: true, force: true })
  mkdirSync(outdir, { recursive: true })
  const result = await build({
    entryPoints: { app: join(SRC, 'app.ts'), chart: join(SRC, 'chart.ts') },
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2022'],
    outdir,
    entryNames: '[name]-[hash]',
    metafile: true,
    logLevel: 'warning',
    legalComments: 'none',
  })
  const manifest: Record<string, string> = {}
  for (const [out, meta] of Object.entries(result.metafile.outputs)) {
    if (!meta.entryPoint && !out.endsWith('.css')) continue
    const file = basename(out)
    const logical = file.replace(/-[A-Z0-9]+\./, '.')
    manifest[logical] = file
  }
  writeFileSync(join(outdir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n')
  return manifest
}

export function gzipSizes(manifest: Record<string, string>, dir = ASSET_DIR): Record<string, number> {
  return Object.fromEntries(
    Object.entries(manifest).map(([name, file]) => [name, gzipSync(readFileSync(join(dir, file))).length]),
  )
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const manifest = await buildAssets()
  const sizes = gzipSizes(manifest)
  const line = Object.entries(sizes)
    .map(([n, s]) => `${n} ${(s / 1024).toFixed(1)} KiB`)
    .join(', ')
  process.stdout.write(`dashboard assets (gzip): ${line}\n`)
}
