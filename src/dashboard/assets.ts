/**
 * The dashboard's static files: the JavaScript and CSS bundles that `npm run build` writes with
 * content hashes in their names (build.ts) into dist/dashboard/assets, served with a year-long
 * immutable cache (a new build has new names) and nothing else: no CDN, works offline.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { join } from 'node:path'
import { PAGE_HEADERS } from './http.js'

/** Same path from src/dashboard (tests, tsx) and dist/dashboard (the built CLI). */
export const ASSET_DIR = fileURLToPath(new URL('../../dist/dashboard/assets/', import.meta.url))
export const ASSET_PREFIX = '/assets/'

/** Logical name (app.js, app.css, chart.js, chart.css) -> hashed file name. */
export type Manifest = Record<string, string>

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
}

export interface Assets {
  /** URL of a logical asset, or undefined when the build has not made it. */
  url(name: string): string | undefined
  /** The response for GET /assets/<file>, or undefined (not ours). */
  serve(file: string): Response | undefined
}

export function loadAssets(dir = ASSET_DIR): Assets {
  let manifest: Manifest = {}
  try {
    manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest
  } catch {
    // not built: pages still render and work (forms need no script); progressive parts are off
  }
  const files = new Map<string, Buffer>()
  for (const file of Object.values(manifest)) {
    try {
      files.set(file, readFileSync(join(dir, file)))
    } catch {
      // a manifest entry without its file: leave it out
    }
  }
  return {
    url: (name) => (manifest[name] && files.has(manifest[name]) ? ASSET_PREFIX + manifest[name] : undefined),
    serve(file) {
      const body = files.get(file)
      if (!body) return undefined
      const ext = file.slice(file.lastIndexOf('.'))
      return new Response(new Uint8Array(body), {
        headers: {
          ...PAGE_HEADERS,
          'content-type': TYPES[ext] ?? 'application/octet-stream',
          'cache-control': 'public, max-age=31536000, immutable',
        },
      })
    },
  }
}
