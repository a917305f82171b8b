import react from '@vitejs/plugin-react'
import type { InlineConfig } from 'vite'

/** The Vite settings both Storybook configurations share. */
export function viteFinal(config: InlineConfig): InlineConfig {
  return {
    ...config,
    plugins: [...(config.plugins ?? []), react()],
    resolve: {
      ...config.resolve,
      // The package is linked (file:../..), so its own imports of msw would otherwise find the
      // repository's copy; one msw in the page, as in a project that installed it from the registry.
      dedupe: ['msw', 'react', 'react-dom'],
    },
    optimizeDeps: {
      ...config.optimizeDeps,
      // Linked, the package is not pre-bundled, so Vite would find the order model it imports (#msw-data, which
      // is @msw/data in a browser) only mid-run and reload the page: named up front. An installed copy needs no line.
      include: [...(config.optimizeDeps?.include ?? []), '@msw/data'],
    },
  }
}
