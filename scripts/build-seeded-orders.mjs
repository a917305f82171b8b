// `npm run build:seeded-orders`: writes src/core/scenario/seeded-orders.json, the orders of every built-in
// scenario that generates them, at its own seed, as faker makes them. The simulator copies them instead of
// generating (a reset costs a copy; a page on a built-in scenario never loads faker). Run after `npm run build`
// whenever the generator, faker or a built-in scenario changes; src/core/scenario/seeded-orders.test.ts fails until then.
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../', import.meta.url))
const { seededOrderTable } = await import(`${root}dist/src/core/scenario/seeded-order-table.js`)
const path = `${root}src/core/scenario/seeded-orders.json`
writeFileSync(path, seededOrderTable())
console.log(`Wrote ${path}.`)
