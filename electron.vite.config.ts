import react from '@vitejs/plugin-react'
import { defineConfig } from 'electron-vite'
import { resolve } from 'node:path'

export default defineConfig({
  main: {
    build: {
      // Pure-JS libraries load faster bundled than resolved file by file at every start
      // (zod and its Fastify provider go together: the provider checks instanceof zod types).
      externalizeDeps: {
        exclude: ['zod', 'fastify-type-provider-zod', 'libphonenumber-js', 'env-paths', 'secure-json-parse', 'ipaddr.js'],
      },
      rolldownOptions: {
        // Two entries from one config: the Electron main process and the headless CLI.
        // They share the runtime chunk; only index.js ever imports electron. A third, the SIP
        // line's media thread, is a worker file of its own (media-plane.ts starts it).
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          cli: resolve(__dirname, 'src/service/cli.ts'),
          'sip-media-worker': resolve(__dirname, 'src/service/sip/media-worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      rolldownOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        // A sandboxed preload cannot load ES modules.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    build: {
      // Served over HTTP too (`voicedesk serve`, /app/): a minified bundle loads faster in a browser.
      minify: true,
      rolldownOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } },
    },
    plugins: [react()],
  },
})
