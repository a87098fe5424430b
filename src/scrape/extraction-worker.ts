// Worker-thread entry of the extraction pool. From dist/ it is plain JavaScript; from src/ (tests run TypeScript)
// Node strips the types but does not map the `.js` specifiers our sources use onto their `.ts` files, so a resolve
// hook does that first, before anything of the project is loaded.
import { registerHooks } from 'node:module';

if (import.meta.url.endsWith('.ts')) {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      if (/^\.\.?\//.test(specifier) && specifier.endsWith('.js')) {
        try {
          return nextResolve(specifier, context);
        } catch {
          return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
        }
      }
      return nextResolve(specifier, context);
    },
  });
}

await import('./extraction-thread.js');
