import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'

/** The part of an Emscripten module the audio engines use: its heap and allocator. */
export interface EmscriptenModule {
  HEAP16: Int16Array
  HEAPU32: Uint32Array
  _malloc(bytes: number): number
  _free(pointer: number): void
}

/**
 * Loads an Emscripten ES module factory from node_modules at run time and instantiates it. The
 * main process is bundled by electron-vite, so the package is resolved by name here (like the
 * eSpeak engine does) rather than imported statically; the module then finds its .wasm beside itself.
 */
export async function loadWasmModule<Module extends EmscriptenModule>(packageName: string): Promise<Module> {
  let path: string
  try {
    path = createRequire(import.meta.url).resolve(packageName)
  } catch (error) {
    throw new Error(`${packageName} is not installed: it cannot be resolved from node_modules`, { cause: error })
  }
  const loaded = (await import(pathToFileURL(path).href)) as { default: (options?: object) => Promise<Module> }
  return loaded.default({})
}
