/**
 * The order model's library, a module of its own: order-store.ts imports it on a state's first
 * change, so a page that changes no order never loads @msw/data and mutative.
 */
export { Collection } from '@msw/data'
