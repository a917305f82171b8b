import * as fs from 'node:fs/promises'
import type { StateFs } from '../../src/transports/node/state-file.js'

/** node:fs/promises, with the file handle's writeFile failing as a full disk does for our temp files. */
export const fullDisk: StateFs = {
  ...fs,
  open: (async (...args: Parameters<typeof fs.open>) => {
    const handle = await fs.open(...args)
    if (String(args[0]).endsWith('.tmp'))
      handle.writeFile = () => Promise.reject(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }))
    return handle
  }) as typeof fs.open,
}
