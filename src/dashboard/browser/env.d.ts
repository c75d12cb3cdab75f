/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Browser code of the dashboard, bundled by esbuild (build.ts); stylesheets are bundled beside it.
declare module '*.css'
