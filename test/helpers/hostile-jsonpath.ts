/**
 * JSONPath payloads that ran code through jsonpath-plus 10.0.7's "safe" evaluator (CVE-2025-1302
 * and the escapes after it; issue 31), for tests that prove none of them runs any more. Each
 * payload carries `js` as the body of a function it tries to create and call; the body's brackets
 * and quotes are written as \xNN escapes inside a template literal (`Function\`…\`\`\``), so it has
 * none that the path's own syntax would stop at.
 */

/** `js` as a template-literal function body that creates and calls itself: Function`…```. */
function selfCalling(js: string): string {
  const escaped = js.replace(/[()[\]{}'"`\\$]/g, (c) => `\\\\x${c.charCodeAt(0).toString(16)}`)
  return `Function\`${escaped}\`\`\``
}

/** Payloads by name, each trying to run `js` (e.g. write a marker file, set a global). */
export function hostileJsonPaths(js: string): Record<string, string> {
  const code = selfCalling(js)
  return {
    // the advisory's shape: a Function reached through ''[['constructor']][['constructor']]
    'cve-2025-1302 constructor chain': `$..[?(p='${code}';a=''[['constructor']][['constructor']](p);a())]`,
    'bind (the issue)': `$[?(''[['constructor']][['constructor']][['bind']](null, '${code}')())]`,
    call: `$[?(''[['constructor']][['constructor']][['call']](null, '${code}')())]`,
    apply: `$[?(''[['constructor']][['constructor']][['apply']](null, ['${code}'])())]`,
    '@.constructor': `$[?(@.constructor.constructor('${code}')())]`,
    '@.__proto__': `$[?(@.__proto__.constructor.constructor('${code}')())]`,
    this: `$[?(this.constructor.constructor('${code}')())]`,
    process: `$[?(process.mainModule.require('child_process').execSync('true'))]`,
    'template literal': `$[?(\`\${${code}}\`)]`,
    'bracketed __proto__': `$[?(@['__proto__'][['constructor']][['constructor']][['call']](null, '${code}')())]`,
    'root constructor': `$.constructor.constructor('${code}')()`,
  }
}

/** JavaScript that writes `file` (holding the pid of whoever ran it) and sets globalThis[flag]. */
export function markerJs(file: string, flag: string): string {
  return `globalThis.${flag}=1;process.getBuiltinModule("fs").writeFileSync("${file}",""+process.pid)`
}
