import { SimpleFaker } from '@faker-js/faker'
import { orderGenerator } from './order-generator.js'

/** The order generator with faker loaded: a page's chunk of its own, the scripts that make the built-in orders, tests. */
export const generateOrders = orderGenerator(SimpleFaker)
