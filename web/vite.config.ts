import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * The people's console: built into dist/web, which the API process serves at `/` (one origin, one
 * command). `npm run dev` runs this dev server in front of the API: /trpc, /v1 and /docs are proxied
 * to it (API_PORT, else PORT, else 3000).
 */
const root = fileURLToPath(new URL('.', import.meta.url));
const apiPort = process.env.API_PORT ?? process.env.PORT ?? '3000';
const api = `http://127.0.0.1:${apiPort}`;

const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

/**
 * The console imports the procedures' zod schemas from src/routers; a schema module that reaches a
 * Node built-in (a file read, a database table) would be shipped to the browser and fail there. The
 * build stops instead, naming the importer: import a purer module.
 */
function noNodeBuiltins(): Plugin {
  return {
    name: 'console-no-node-builtins',
    enforce: 'pre',
    resolveId(source, importer) {
      if (builtins.has(source)) this.error(`${importer ?? 'the console'} imports the Node module "${source}", which does not exist in a browser`);
      return null;
    },
  };
}

export default defineConfig({
  root,
  plugins: [noNodeBuiltins(), react(), tailwindcss()],
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
  },
  server: {
    port: Number(process.env.CONSOLE_PORT ?? 5173),
    strictPort: false,
    proxy: {
      '/trpc': api,
      '/v1': api,
      '/docs': api,
    },
  },
});
