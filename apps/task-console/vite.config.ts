import { defineConfig } from 'vite';

// `base: './'` keeps every asset URL relative, so the same bundle works under /console/ on the tool server and
// from any other static host.
export default defineConfig({
  base: './',
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: true, reportCompressedSize: true },
});
